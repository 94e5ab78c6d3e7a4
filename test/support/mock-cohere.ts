import type { MockReply, ReceivedRequest } from './mock-upstream';

/** The key the mock Cohere accepts; any other bearer gets Cohere's 401. */
export const COHERE_KEY = 'co-upstream-secret-key-0123456789';
export const COHERE_REPLY_TEXT = 'Hello from mock Cohere!';
/**
 * What the mock Cohere reports for every chat: Cohere bills `billed_units`, while `tokens` also
 * counts its own prompt template; a test billing 300 input tokens would have read the wrong one.
 */
export const COHERE_USAGE = { billed_units: { input_tokens: 11, output_tokens: 7 }, tokens: { input_tokens: 300, output_tokens: 7 } };
/** Billed input tokens of an embed call: one per text, as the mock counts them. */
export const COHERE_EMBED_TOKENS_PER_TEXT = 3;

/** Cohere's error body: `{"id", "message"}` with the HTTP status. */
function cohereError(status: number, message: string): MockReply {
  return { status, json: { id: 'f6a1e6c3-mock', message } };
}

function sse(events: Array<Record<string, unknown>>): string {
  return `${events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** What the model answers: a call of the first tool while no tool result came back (tools offered), else text quoting the result. */
function answerOf(body: Record<string, unknown>): { text: string; call?: { id: string; type: 'function'; function: { name: string; arguments: string } }; plan?: string } {
  const messages = body.messages as Array<{ role: string; content?: unknown }>;
  const last = messages[messages.length - 1];
  const tools = body.tools as Array<{ function: { name: string } }> | undefined;
  if (last?.role === 'tool') return { text: `The tool said ${String(last.content)}` };
  if (tools?.length && body.tool_choice !== 'NONE') {
    return { text: '', plan: 'I will call the tool.', call: { id: `${tools[0].function.name}_mock01`, type: 'function', function: { name: tools[0].function.name, arguments: '{"city":"Paris"}' } } };
  }
  return { text: COHERE_REPLY_TEXT };
}

function chatReply(body: Record<string, unknown>): MockReply {
  if (!Array.isArray(body.messages) || typeof body.model !== 'string') return cohereError(400, 'invalid request: messages and model are required');
  const answer = answerOf(body);
  if (body.stream !== true) {
    const message: Record<string, unknown> = { role: 'assistant' };
    if (answer.text) message.content = [{ type: 'text', text: answer.text }];
    if (answer.call) Object.assign(message, { tool_plan: answer.plan, tool_calls: [answer.call] });
    return { status: 200, json: { id: 'chat-mock-1', message, finish_reason: answer.call ? 'TOOL_CALL' : 'COMPLETE', usage: COHERE_USAGE } };
  }
  const events: Array<Record<string, unknown>> = [{ type: 'message-start', id: 'chat-mock-1', delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } } }];
  if (answer.call) {
    const { arguments: args, name } = answer.call.function;
    events.push(
      { type: 'tool-plan-delta', delta: { message: { tool_plan: answer.plan } } },
      { type: 'tool-call-start', index: 0, delta: { message: { tool_calls: { id: answer.call.id, type: 'function', function: { name, arguments: '' } } } } },
      { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: args.slice(0, 8) } } } } },
      { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: args.slice(8) } } } } },
      { type: 'tool-call-end', index: 0 },
    );
  } else {
    events.push({ type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } });
    for (const word of answer.text.split(/(?<= )/)) events.push({ type: 'content-delta', index: 0, delta: { message: { content: { text: word } } } });
    events.push({ type: 'content-end', index: 0 });
  }
  events.push({ type: 'message-end', delta: { finish_reason: answer.call ? 'TOOL_CALL' : 'COMPLETE', usage: COHERE_USAGE } });
  return { status: 200, text: sse(events), contentType: 'text/event-stream' };
}

function embedReply(body: Record<string, unknown>): MockReply {
  if (!Array.isArray(body.embedding_types)) return cohereError(400, 'embedding_types parameter is required');
  if (typeof body.input_type !== 'string') return cohereError(400, 'invalid request: valid input_type must be provided with the provided model');
  const texts = body.texts as string[];
  return {
    status: 200,
    json: {
      id: 'embed-mock-1',
      texts,
      embeddings: { float: texts.map((_, index) => [index, 0.5, -0.25]) },
      meta: { api_version: { version: '2' }, billed_units: { input_tokens: COHERE_EMBED_TOKENS_PER_TEXT * texts.length } },
      response_type: 'embeddings_by_type',
    },
  };
}

/** Rerank scores documents by the query words they contain, best first; billed in search units, as Cohere does. */
function rerankReply(body: Record<string, unknown>): MockReply {
  const documents = body.documents as unknown[];
  if (!Array.isArray(documents) || documents.some((document) => typeof document !== 'string')) return cohereError(400, 'invalid request: documents must be a list of strings');
  const words = String(body.query).toLowerCase().split(/\W+/).filter(Boolean);
  const scored = (documents as string[]).map((document, index) => ({ index, relevance_score: words.filter((word) => document.toLowerCase().includes(word)).length / words.length }));
  scored.sort((a, b) => b.relevance_score - a.relevance_score);
  const results = typeof body.top_n === 'number' ? scored.slice(0, body.top_n) : scored;
  return { status: 200, json: { id: 'rerank-mock-1', results, meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } } } };
}

/**
 * Cohere's v2 API on the mock upstream: /v2/chat (JSON, or its typed SSE events when `stream`
 * is set, tool calls included), /v2/embed, /v2/rerank and /v1/models, with a bearer key checked
 * as Cohere does (its `{"message": "invalid api token"}` 401), refusing what Cohere refuses.
 */
export function cohereReply(request: ReceivedRequest): MockReply {
  const auth = String(request.headers.authorization ?? '');
  if (!auth) return cohereError(401, 'no api key supplied');
  if (auth !== `Bearer ${COHERE_KEY}`) return cohereError(401, 'invalid api token');
  const path = request.path.split('?')[0];
  if (path === '/v1/models' && request.method === 'GET') return { status: 200, json: { models: [{ name: 'command-a-03-2025', endpoints: ['chat'] }, { name: 'embed-v4.0', endpoints: ['embed'] }] } };
  if (path === '/v2/chat') return chatReply(request.body);
  if (path === '/v2/embed') return embedReply(request.body);
  if (path === '/v2/rerank') return rerankReply(request.body);
  return cohereError(404, '404 page not found');
}
