import { randomBytes } from 'node:crypto';
import type { MockReply, ReceivedRequest } from './mock-upstream';

export const ERNIE_REPLY_TEXT = 'ERNIE says hello.';
/** What the mock ERNIE reports for every chat answer. */
export const ERNIE_USAGE = { prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 };
export const ERNIE_EMBEDDING_USAGE = { prompt_tokens: 4, total_tokens: 4 };

const TOKEN_LIFETIME_SECONDS = 2592000;
const CHAT_PATH = /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/([^/]+)$/;
const EMBEDDINGS_PATH = /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/embeddings\/([^/]+)$/;

/** Baidu's error answer: status 200 with `{error_code, error_msg}`, as its API answers errors. */
export function baiduError(code: number, message: string): MockReply {
  return { status: 200, json: { error_code: code, error_msg: message, id: '' } };
}

/**
 * Baidu's legacy ERNIE API on the mock upstream. The token endpoint issues access tokens only
 * to its one application's API key and secret key (OAuth client credentials, read from the
 * query or the form body, as Baidu's endpoint takes either); the chat and embeddings endpoints
 * take only a token it issued and has not expired (else error 110 or 111 in a 200 answer).
 * `expire(token)` ends a token before its time, as Baidu may, to show the one renewal.
 */
export class MockBaidu {
  /** Tokens issued, and whether each has expired. */
  private readonly issued = new Map<string, { expired: boolean }>();
  /** Set to answer the next chat or embeddings call with this error instead. */
  nextError?: MockReply;

  constructor(
    readonly apiKey = 'baidu-api-key-1234',
    readonly secretKey = 'baidu-secret-key-5678',
  ) {}

  /** The tokens issued so far, oldest first. */
  get tokens(): string[] {
    return [...this.issued.keys()];
  }

  expire(token: string): void {
    const entry = this.issued.get(token);
    if (entry) entry.expired = true;
  }

  reset(): void {
    this.issued.clear();
    this.nextError = undefined;
  }

  readonly reply = (request: ReceivedRequest): MockReply => {
    const url = new URL(request.path, 'http://mock');
    if (url.pathname === '/oauth/2.0/token') return this.token(url, request);
    const chat = CHAT_PATH.exec(url.pathname);
    const embeddings = EMBEDDINGS_PATH.exec(url.pathname);
    if (!chat && !embeddings) return baiduError(3, 'Unsupported openapi method');
    const token = url.searchParams.get('access_token') ?? '';
    const entry = this.issued.get(token);
    if (!entry) return baiduError(110, 'Access token invalid or no longer valid');
    if (entry.expired) return baiduError(111, 'Access token expired');
    if (this.nextError) {
      const error = this.nextError;
      this.nextError = undefined;
      return error;
    }
    return chat ? this.chat(request) : this.embeddings(request);
  };

  private token(url: URL, request: ReceivedRequest): MockReply {
    if (request.method !== 'POST') return { status: 404, json: { error: 'invalid_request' } };
    const form = new URLSearchParams(request.raw.toString('utf8'));
    const param = (name: string) => url.searchParams.get(name) ?? form.get(name);
    if (param('grant_type') !== 'client_credentials') return { status: 400, json: { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported' } };
    if (param('client_id') !== this.apiKey) return { status: 401, json: { error: 'invalid_client', error_description: 'unknown client id' } };
    if (param('client_secret') !== this.secretKey) return { status: 401, json: { error: 'invalid_client', error_description: 'Client authentication failed' } };
    const token = `24.${randomBytes(16).toString('hex')}.${TOKEN_LIFETIME_SECONDS}.1718000000.282335-mock`;
    this.issued.set(token, { expired: false });
    return { status: 200, json: { refresh_token: `25.${randomBytes(8).toString('hex')}`, expires_in: TOKEN_LIFETIME_SECONDS, scope: 'public ai_custom_yiyan_com', session_key: 'mock', access_token: token, session_secret: 'mock' } };
  }

  private chat(request: ReceivedRequest): MockReply {
    const messages = request.body.messages;
    // ERNIE's own rule: an odd number of turns, user and assistant alternating, starting with the user.
    const alternating = Array.isArray(messages) && messages.length % 2 === 1 && messages.every((message: { role?: string }, index) => message.role === (index % 2 === 0 ? 'user' : 'assistant'));
    if (!alternating) return baiduError(336006, 'the length of messages must be an odd number');
    if ('model' in request.body) return baiduError(336003, 'model is not a parameter of this endpoint');
    const base = { id: 'as-mock', object: 'chat.completion', created: 1718000000, is_truncated: false, need_clear_history: false, finish_reason: 'normal' };
    if (request.body.stream !== true) return { status: 200, json: { ...base, result: ERNIE_REPLY_TEXT, usage: ERNIE_USAGE } };
    const pieces = ERNIE_REPLY_TEXT.split(/(?<= )/);
    const events = pieces.map((piece, index) => JSON.stringify({ ...base, sentence_id: index, is_end: false, result: piece, usage: { prompt_tokens: 9, completion_tokens: 0, total_tokens: 9 } }));
    events.push(JSON.stringify({ ...base, sentence_id: pieces.length, is_end: true, result: '', usage: ERNIE_USAGE }));
    return { sse: events };
  }

  private embeddings(request: ReceivedRequest): MockReply {
    const input = request.body.input;
    if (!Array.isArray(input) || input.length === 0 || input.length > 16) return baiduError(336003, 'input must be a list of 1 to 16 texts');
    const data = input.map((_, index) => ({ object: 'embedding', embedding: [index, 0.5, 0.25], index }));
    return { status: 200, json: { id: 'as-emb', object: 'embedding_list', created: 1718000000, data, usage: ERNIE_EMBEDDING_USAGE } };
  }
}
