import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { anthropicReply, CLAUDE_USAGE } from './mock-anthropic';
import type { MockReply, ReceivedRequest } from './mock-upstream';

/** The keys Bedrock's Claude Messages body may hold; any other is refused, as Bedrock does. */
const BEDROCK_BODY_KEYS = new Set(['anthropic_version', 'anthropic_beta', 'messages', 'system', 'max_tokens', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'tools', 'tool_choice', 'thinking']);

/**
 * The anthropic_beta names this mock takes, as Bedrock takes a known list and answers any other
 * "invalid beta flag" (the names the tests send; Bedrock knows a few more).
 */
const BEDROCK_BETAS = new Set(['interleaved-thinking-2025-05-14', 'context-management-2025-06-27', 'context-1m-2025-08-07', 'effort-2025-11-24', 'output-128k-2025-02-19']);

export const BEDROCK_KEY = { accessKeyId: 'AKIAMOCKACCESSKEY', secretAccessKey: 'mock/secret+access/key', region: 'us-east-1' };

/** Re-signs the request as AWS would check it: same credentials, same canonical request, same time. */
async function signatureMatches(request: ReceivedRequest): Promise<boolean> {
  const host = String(request.headers.host);
  const authorization = String(request.headers.authorization ?? '');
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  if (!authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${BEDROCK_KEY.accessKeyId}/`) || !amzDate) return false;
  const signer = new SignatureV4({ service: 'bedrock', region: BEDROCK_KEY.region, credentials: BEDROCK_KEY, sha256: Sha256 });
  const [hostname, port] = host.split(':');
  const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1].split(';') ?? [];
  const headers: Record<string, string> = {};
  for (const name of signedNames) headers[name] = name === 'host' ? host : String(request.headers[name] ?? '');
  const signingDate = new Date(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  const again = await signer.sign({ method: request.method, protocol: 'http:', hostname, port: Number(port), path: request.path, query: {}, headers, body: request.raw.toString('utf8') }, { signingDate });
  return again.headers.authorization === authorization;
}

function frame(codec: EventStreamCodec, event: Record<string, unknown>): Buffer {
  const body = fromUtf8(JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64') }));
  return Buffer.from(
    codec.encode({
      headers: { ':event-type': { type: 'string', value: 'chunk' }, ':content-type': { type: 'string', value: 'application/json' }, ':message-type': { type: 'string', value: 'event' } },
      body,
    }),
  );
}

/**
 * AWS Bedrock's Claude invoke API on the mock upstream: refuses a request whose SigV4
 * signature does not verify or whose body has keys Bedrock does not know (model, stream, metadata), then
 * answers as `answerAsClaude` does (by default the Anthropic mock, tools included): a Claude message for invoke, its
 * events in AWS's binary event-stream framing for invoke-with-response-stream.
 */
export async function bedrockReply(request: ReceivedRequest, answerAsClaude: (request: ReceivedRequest) => MockReply = anthropicReply): Promise<MockReply> {
  if (!(await signatureMatches(request))) return { status: 403, json: { message: 'The request signature we calculated does not match the signature you provided.' } };
  const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(request.path);
  if (!match) return { status: 404, json: { message: 'not found' } };
  const body = request.body;
  const extraneous = Object.keys(body).find((key) => !BEDROCK_BODY_KEYS.has(key));
  if (extraneous) return { status: 400, json: { message: `Malformed input request: extraneous key [${extraneous}] is not permitted, please reformat your input and try again.` } };
  if (body.anthropic_version !== 'bedrock-2023-05-31' || typeof body.max_tokens !== 'number') return { status: 400, json: { message: 'Malformed input request' } };
  if (Array.isArray(body.anthropic_beta) && body.anthropic_beta.some((name) => !BEDROCK_BETAS.has(String(name)))) return { status: 400, json: { message: 'invalid beta flag' } };
  const stream = match[2] === 'invoke-with-response-stream';
  const claude = answerAsClaude({ ...request, path: '/v1/messages', headers: { ...request.headers, 'x-api-key': 'checked', 'anthropic-version': '2023-06-01' }, body: { ...body, model: decodeURIComponent(match[1]), stream } });
  if (!stream || !('text' in claude)) return claude;
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const events = String(claude.text)
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  const last = events[events.length - 1];
  last['amazon-bedrock-invocationMetrics'] = { inputTokenCount: CLAUDE_USAGE.input_tokens, outputTokenCount: CLAUDE_USAGE.output_tokens };
  return { status: 200, text: Buffer.concat(events.map((event) => frame(codec, event))), contentType: 'application/vnd.amazon.eventstream' };
}
