import { createVerify, generateKeyPairSync } from 'node:crypto';
import { anthropicReply } from './mock-anthropic';
import { geminiReply } from './mock-gemini';
import type { MockReply, ReceivedRequest } from './mock-upstream';

/** A service account made for the tests: its private key signs, the mock verifies with the public one. */
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
/** The anthropic-beta names this mock's Claude models take; Vertex answers any other 400 (the names the tests send; Vertex knows a few more). */
const VERTEX_CLAUDE_BETAS = new Set(['interleaved-thinking-2025-05-14', 'context-management-2025-06-27', 'context-1m-2025-08-07']);
export const VERTEX_ACCESS_TOKEN = 'ya29.mock-access-token';

/** Pretty-printed, as Google's console downloads it: the channel keeps the whole file as one key. */
export function serviceAccountKey(tokenUri: string): string {
  return JSON.stringify(
    {
      type: 'service_account',
      project_id: 'mock-project',
      client_email: 'relay@mock-project.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: tokenUri,
    },
    null,
    2,
  );
}

/** Google's token endpoint: checks the JWT's RS256 signature and claims, then grants an hour. */
function tokenReply(request: ReceivedRequest): MockReply {
  const form = new URLSearchParams(request.raw.toString('utf8'));
  const [header, claims, signature] = (form.get('assertion') ?? '').split('.');
  const verified = Boolean(signature) && createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(publicKey, signature, 'base64url');
  const payload = verified ? (JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { iss?: string; scope?: string }) : {};
  if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !verified || payload.iss !== 'relay@mock-project.iam.gserviceaccount.com' || !payload.scope?.includes('cloud-platform')) {
    return { status: 400, json: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
  }
  return { status: 200, json: { access_token: VERTEX_ACCESS_TOKEN, expires_in: 3599, token_type: 'Bearer' } };
}

/**
 * Vertex AI on the mock upstream: the token endpoint, then Gemini models (publishers/google)
 * and Claude models (publishers/anthropic, rawPredict) under a project and region, answered as
 * the Gemini mock and `answerAsClaude` (by default the Anthropic mock) answer once the bearer
 * token and, for Claude, the anthropic-beta names are checked.
 */
export function vertexReply(request: ReceivedRequest, answerAsClaude: (request: ReceivedRequest) => MockReply = anthropicReply): MockReply | Promise<MockReply> {
  if (request.path === '/token') return tokenReply(request);
  if (request.headers.authorization !== `Bearer ${VERTEX_ACCESS_TOKEN}`) return { status: 401, json: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } };
  const url = new URL(request.path, 'http://mock');
  const match = /^\/v1\/projects\/mock-project\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
  if (!match) return { status: 404, json: { error: { code: 404, message: `mock has no ${url.pathname}`, status: 'NOT_FOUND' } } };
  const [, , publisher, model, action] = match;
  if (publisher === 'google') return geminiReply({ ...request, path: `/v1beta/models/${model}:${action}${url.search}`, headers: { ...request.headers, 'x-goog-api-key': 'checked' } });
  if (request.body.anthropic_version !== 'vertex-2023-10-16' || 'model' in request.body) return { status: 400, json: { error: { code: 400, message: 'anthropic_version must be vertex-2023-10-16, and the model is in the URL', status: 'INVALID_ARGUMENT' } } };
  const unexpected = String(request.headers['anthropic-beta'] ?? '')
    .split(',')
    .filter((name) => name && !VERTEX_CLAUDE_BETAS.has(name));
  if (unexpected.length > 0) return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: `Unexpected value(s) ${unexpected.map((name) => `\`${name}\``).join(', ')} for the \`anthropic-beta\` header.` } } };
  return answerAsClaude({
    ...request,
    path: '/v1/messages',
    headers: { ...request.headers, 'x-api-key': 'checked', 'anthropic-version': '2023-06-01' },
    body: { ...request.body, model, stream: action === 'streamRawPredict' },
  });
}
