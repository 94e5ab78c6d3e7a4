import { EventStreamWriter, JsonArrayStreamWriter, type ClientResponse } from '../wire/client-stream-writers';
import { firstChoice } from '../formats/inbound-format';
import type { JsonObject, WireFormat } from '../wire/wire-format';
import { openAIResponseFromClaude } from '../providers/claude/claude-messages';
import { openAIResponseFromGemini } from '../providers/gemini/gemini-content';
import { readUsage } from '../wire/openai-usage';
import { fullUsage } from '../wire/usage';
import type { PreparedRequest } from '../stages/relay-request';

/** A complete chat answer in a client's format, read back into OpenAI's shape (the one the stream encoders take). */
const AS_OPENAI_ANSWER: Partial<Record<WireFormat, (answer: JsonObject, model: string) => JsonObject>> = {
  openai: (answer) => answer,
  claude: openAIResponseFromClaude,
  gemini: openAIResponseFromGemini,
};

/**
 * A cached chat answer as the stream the client asked for, in its format and framing: the
 * answer read back into OpenAI's shape, cut into the chunks a stream of it would have carried
 * (the whole message, then the finish), and written through the client format's encoder, as a
 * translated stream is. Undefined when the stored answer cannot be read so (the call is then
 * served as a miss).
 */
export function cachedStreamText(request: PreparedRequest, bytes: Buffer): string | undefined {
  const { route } = request;
  const asOpenAI = AS_OPENAI_ANSWER[route.inbound.wire];
  if (!asOpenAI || route.spec.endpoint !== 'chat') return undefined;
  let answer: JsonObject;
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    answer = asOpenAI(parsed as JsonObject, request.model);
  } catch {
    return undefined;
  }
  const streamOptions = request.body?.stream_options as JsonObject | undefined;
  const encoder = route.inbound.createStreamEncoder({ model: request.model, includeUsage: streamOptions?.include_usage === true });
  let text = '';
  for (const chunk of streamChunks(answer)) text += encoder.encode(chunk);
  return text + encoder.end(fullUsage(readUsage(answer.usage)));
}

/** Writes the stream's text in the client's framing: SSE, or Gemini's JSON array for a client that did not ask for alt=sse. */
export function writeCachedStream(request: PreparedRequest, response: ClientResponse, text: string): void {
  const writer = request.route.jsonArrayStream ? new JsonArrayStreamWriter(response, request.requestId) : new EventStreamWriter(response, request.requestId);
  writer.write(text);
  writer.end();
}

/** An OpenAI chat completion as the chunks of its stream: the message's role, reasoning, text and tool calls in one delta, then the finish reason. */
function streamChunks(answer: JsonObject): JsonObject[] {
  const choice = firstChoice(answer) ?? {};
  const message = (choice.message ?? {}) as JsonObject;
  const head = { id: typeof answer.id === 'string' ? answer.id : 'chatcmpl-cache', object: 'chat.completion.chunk', created: typeof answer.created === 'number' ? answer.created : Math.floor(Date.now() / 1000) };
  const delta: JsonObject = { role: 'assistant' };
  if (typeof message.reasoning_content === 'string' && message.reasoning_content) delta.reasoning_content = message.reasoning_content;
  if (typeof message.content === 'string') delta.content = message.content;
  if (Array.isArray(message.tool_calls)) delta.tool_calls = (message.tool_calls as JsonObject[]).map((call, index) => ({ index, ...call }));
  return [
    { ...head, choices: [{ index: 0, delta, finish_reason: null }] },
    { ...head, choices: [{ index: 0, delta: {}, finish_reason: typeof choice.finish_reason === 'string' ? choice.finish_reason : 'stop' }] },
  ];
}
