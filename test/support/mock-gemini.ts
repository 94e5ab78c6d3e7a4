import type { MockReply, ReceivedRequest } from './mock-upstream';

/** What the mock Gemini reports for every answer: cached and thinking tokens included. */
export const GEMINI_USAGE = { promptTokenCount: 30, candidatesTokenCount: 10, thoughtsTokenCount: 5, cachedContentTokenCount: 20, totalTokenCount: 45 };
export const GEMINI_REPLY_TEXT = 'Hello from mock Gemini!';
/** A 1×1 PNG the mock serves at /cat.png, for image URLs the gateway must fetch and inline. */
export const CAT_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * Google's Gemini API on the mock upstream: generateContent, streamGenerateContent (alt=sse),
 * batchEmbedContents and the model list, keyed by x-goog-api-key as Google's API accepts it.
 * A forced function call (toolConfig ANY) answers with a functionCall part.
 */
export function geminiReply(request: ReceivedRequest): MockReply {
  const url = new URL(request.path, 'http://mock');
  if (url.pathname === '/cat.png') return { status: 200, text: CAT_PNG, contentType: 'image/png' };
  if (!request.headers['x-goog-api-key']) return { status: 403, json: { error: { code: 403, message: 'Method doesn\'t allow unregistered callers', status: 'PERMISSION_DENIED' } } };
  if (url.pathname === '/v1beta/models') return { status: 200, json: { models: [{ name: 'models/gemini-2.5-flash' }, { name: 'models/gemini-2.5-pro' }] } };
  const match = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|batchEmbedContents)$/.exec(url.pathname);
  if (!match) return { status: 404, json: { error: { code: 404, message: `mock has no ${url.pathname}`, status: 'NOT_FOUND' } } };
  const [, model, action] = match;
  const body = request.body;
  if (action === 'batchEmbedContents') {
    return { status: 200, json: { embeddings: (body.requests as unknown[]).map((_, index) => ({ values: [index, 0.5, 0.25] })) } };
  }
  const calling = (body.toolConfig as { functionCallingConfig?: { mode?: string } } | undefined)?.functionCallingConfig;
  const tool = calling?.mode === 'ANY' ? (body.tools as Array<{ functionDeclarations: Array<{ name: string }> }>)[0].functionDeclarations[0] : undefined;
  const parts = tool ? [{ functionCall: { name: tool.name, args: { city: 'Paris' } } }] : [{ text: 'Let me think.', thought: true }, { text: GEMINI_REPLY_TEXT }];
  if (action === 'generateContent') {
    return { status: 200, json: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: GEMINI_USAGE, modelVersion: model, responseId: 'resp-mock' } };
  }
  if (url.searchParams.get('alt') !== 'sse') return { status: 400, json: { error: { code: 400, message: 'the mock streams only with alt=sse', status: 'INVALID_ARGUMENT' } } };
  const chunks = tool ? [parts] : [[parts[0]], ...GEMINI_REPLY_TEXT.split(/(?<= )/).map((text) => [{ text }])];
  const events = chunks.map((chunkParts, index) => {
    const last = index === chunks.length - 1;
    const usage = last ? GEMINI_USAGE : { promptTokenCount: 30, totalTokenCount: 30 };
    return JSON.stringify({ candidates: [{ content: { role: 'model', parts: chunkParts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }], usageMetadata: usage, modelVersion: model, responseId: 'resp-mock' });
  });
  return { status: 200, text: events.map((event) => `data: ${event}\r\n\r\n`).join(''), contentType: 'text/event-stream' };
}

/**
 * Gemini answering a stream in its other framing, as Google does without alt=sse (and as a
 * proxy that drops the parameter would): one pretty-printed JSON array.
 */
export function geminiJsonArrayReply(request: ReceivedRequest): MockReply {
  const url = new URL(request.path, 'http://mock');
  if (!url.pathname.endsWith(':streamGenerateContent')) return geminiReply(request);
  url.searchParams.set('alt', 'sse');
  const sse = geminiReply({ ...request, path: `${url.pathname}${url.search}` });
  if (!('text' in sse)) return sse;
  const events = String(sse.text)
    .split('\r\n\r\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => JSON.stringify(JSON.parse(event.slice(6)), null, 2).replace(/\n/g, '\r\n'));
  return { status: 200, text: `[${events.join('\r\n,\r\n')}]`, contentType: 'application/json; charset=UTF-8' };
}
