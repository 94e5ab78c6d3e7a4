import { chatCompletion, chatStreamEvents, type MockReply, type ReceivedRequest } from './mock-upstream';

export const DASHSCOPE_KEY = 'sk-dashscope-upstream-secret';
export const DASHSCOPE_REPLY_TEXT = 'Hello from mock Qwen!';
/** What the native API reports for every chat: 30 input tokens (8 of them cached), 10 output. */
export const DASHSCOPE_USAGE = { input_tokens: 30, output_tokens: 10, total_tokens: 40, prompt_tokens_details: { cached_tokens: 8 } };
/** What the compatible mode reports, in OpenAI's shape. */
export const COMPATIBLE_USAGE = { prompt_tokens: 15, completion_tokens: 5, total_tokens: 20 };
export const WEATHER_CALL = { id: 'call_mock', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Hangzhou"}' } };

const REQUEST_ID = '7f9c1e2a-mock-dashscope';

/**
 * Alibaba's DashScope on the mock upstream, keyed by the bearer token as DashScope checks it.
 * Native: text-generation (result_format message; a stream when `X-DashScope-SSE: enable`, in
 * DashScope's framing with `id:`, `event:result` and `:HTTP_STATUS/200` lines, incremental or
 * whole-so-far, usage running totals) and text-embedding; errors `{code, message, request_id}`.
 * Compatible mode (`/compatible-mode/v1/…`): OpenAI's chat, embeddings and model list.
 */
export function dashScopeReply(request: ReceivedRequest): MockReply {
  const path = request.path;
  const compatible = path.startsWith('/compatible-mode/v1/');
  if (request.headers.authorization !== `Bearer ${DASHSCOPE_KEY}`) {
    if (compatible) return { status: 401, json: { error: { message: 'Incorrect API key provided. ', type: 'invalid_request_error', param: null, code: 'invalid_api_key' }, request_id: REQUEST_ID } };
    return { status: 401, json: { code: 'InvalidApiKey', message: 'Invalid API-key provided.', request_id: REQUEST_ID } };
  }
  if (compatible) return compatibleReply(request, path.slice('/compatible-mode/v1'.length));
  if (path === '/api/v1/services/embeddings/text-embedding/text-embedding') {
    const texts = (request.body.input as { texts?: unknown } | undefined)?.texts;
    if (!Array.isArray(texts)) return invalid('Required parameter "input.texts" missing from request.');
    return { status: 200, json: { output: { embeddings: texts.map((_, index) => ({ text_index: index, embedding: [index, 0.25] })) }, usage: { total_tokens: texts.length * 3 }, request_id: REQUEST_ID } };
  }
  if (path !== '/api/v1/services/aigc/text-generation/generation') return { status: 404, json: { code: 'InvalidURL', message: 'Invalid URL provided in your request.', request_id: REQUEST_ID } };
  const messages = (request.body.input as { messages?: unknown } | undefined)?.messages;
  const parameters = (request.body.parameters ?? {}) as Record<string, unknown>;
  if (!Array.isArray(messages) || messages.length === 0) return invalid('Required parameter "input.messages" missing from request.');
  if (parameters.result_format !== 'message') return invalid('The mock answers result_format "message" only.');
  const last = messages[messages.length - 1] as { role?: string };
  const callsTool = Array.isArray(parameters.tools) && last.role === 'user';
  if (request.headers['x-dashscope-sse'] !== 'enable') {
    const message = callsTool ? { role: 'assistant', content: '', tool_calls: [WEATHER_CALL] } : { role: 'assistant', content: DASHSCOPE_REPLY_TEXT };
    return { status: 200, json: { output: { choices: [{ finish_reason: callsTool ? 'tool_calls' : 'stop', message }] }, usage: DASHSCOPE_USAGE, request_id: REQUEST_ID } };
  }
  const pieces = DASHSCOPE_REPLY_TEXT.split(/(?<= )/);
  const incremental = parameters.incremental_output === true;
  const events = pieces.map((piece, index) => {
    const lastPiece = index === pieces.length - 1;
    const content = incremental ? piece : pieces.slice(0, index + 1).join('');
    const usage = lastPiece ? DASHSCOPE_USAGE : { input_tokens: 30, output_tokens: index + 1, total_tokens: 31 + index };
    const data = { output: { choices: [{ message: { role: 'assistant', content }, finish_reason: lastPiece ? 'stop' : 'null' }] }, usage, request_id: REQUEST_ID };
    return `id:${index + 1}\nevent:result\n:HTTP_STATUS/200\ndata:${JSON.stringify(data)}\n\n`;
  });
  return { status: 200, text: events.join(''), contentType: 'text/event-stream;charset=UTF-8' };
}

function invalid(message: string): MockReply {
  return { status: 400, json: { code: 'InvalidParameter', message, request_id: REQUEST_ID } };
}

function compatibleReply(request: ReceivedRequest, path: string): MockReply {
  const model = String(request.body.model);
  if (path === '/models') return { status: 200, json: { object: 'list', data: [{ id: 'qwen-plus', object: 'model' }, { id: 'qwen-max', object: 'model' }] } };
  if (path === '/embeddings') return { status: 200, json: { object: 'list', model, data: [{ object: 'embedding', index: 0, embedding: [0.5, 0.5] }], usage: { prompt_tokens: 4, total_tokens: 4 }, id: REQUEST_ID } };
  if (path !== '/chat/completions') return { status: 404, json: { error: { message: `mock has no ${path}`, type: 'invalid_request_error', code: 'not_found' } } };
  if (request.body.stream !== true) return { status: 200, json: chatCompletion(model, DASHSCOPE_REPLY_TEXT, COMPATIBLE_USAGE) };
  const includeUsage = (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  return { sse: chatStreamEvents(model, DASHSCOPE_REPLY_TEXT, includeUsage ? COMPATIBLE_USAGE : null) };
}
