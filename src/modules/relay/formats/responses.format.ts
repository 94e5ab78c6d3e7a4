import type { JsonObject } from '../wire/wire-format';
import { readUsage } from '../wire/openai-usage';
import { fullUsage, type Usage } from '../wire/usage';
import { RelayError } from '../relay-error';
import { firstChoice, type ClientStreamOptions, type InboundFormat, type StreamEncoder } from './inbound-format';

/**
 * OpenAI's Responses API (POST /v1/responses) as the client's format. A channel whose upstream
 * serves Responses takes the bytes as they are; any other converts through Chat Completions,
 * the internal shape: items become messages, and the answer (or each chunk) becomes
 * Responses' output items and typed events.
 */
export const RESPONSES_FORMAT: InboundFormat = {
  wire: 'responses',
  toOpenAIRequest: chatRequestFromResponses,
  fromOpenAIResponse: responseFromChat,
  createStreamEncoder: (options) => new ResponsesStreamEncoder(options),
};

/** Fields that need the provider's own stored state, which a converted channel has not got. */
const STATEFUL_FIELDS: Readonly<Record<string, string>> = {
  previous_response_id: 'previous_response_id needs the response stored by the upstream, and this channel serves Responses by converting to Chat Completions (the gateway keeps no response state): send the whole conversation as input instead',
  conversation: 'conversation needs a conversation stored by the upstream, and this channel serves Responses by converting to Chat Completions (the gateway keeps no conversation state): send the whole conversation as input instead',
  prompt: 'prompt (a stored prompt template) needs the upstream’s stored prompts, which a channel converting to Chat Completions has not got',
};

function refused(message: string): RelayError {
  return new RelayError('invalid_request', message, 400);
}

function builtInToolRefused(type: string): RelayError {
  return refused(`The tool ${type} is built into OpenAI's Responses API; this channel serves Responses by converting to Chat Completions, which has no such tool: declare it as a function tool, or use a channel whose upstream serves Responses`);
}

/** The text of Responses content: a string, or its text parts (input_text, output_text, refusal) joined. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as JsonObject[]) {
    if (typeof part?.text === 'string') text += part.text;
    else if (typeof part?.refusal === 'string') text += part.refusal;
  }
  return text;
}

/** A user's content parts as Chat's: text and images (an image by file id needs the provider's file store). */
function userContent(content: unknown): unknown {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: JsonObject[] = [];
  for (const part of content as JsonObject[]) {
    if (part?.type === 'input_text' || part?.type === 'output_text') parts.push({ type: 'text', text: String(part.text ?? '') });
    else if (part?.type === 'input_image') {
      if (typeof part.image_url !== 'string') throw refused('input_image by file_id needs the upstream’s file store; send the image as image_url (a URL or a data: URL) for this channel');
      parts.push({ type: 'image_url', image_url: { url: part.image_url, ...(typeof part.detail === 'string' && part.detail !== 'auto' ? { detail: part.detail } : {}) } });
    } else if (part?.type === 'input_file') throw refused('input_file is not supported on a channel that converts Responses to Chat Completions; send the file’s text as input_text');
  }
  return parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts;
}

/** Tool output: a string, or its text parts joined (Chat's tool messages take text). */
function toolOutputText(output: unknown): string {
  return typeof output === 'string' ? output : Array.isArray(output) ? contentText(output) : JSON.stringify(output ?? '');
}

/** A freeform (custom) tool goes to Chat as a function taking its text as `input`. */
const CUSTOM_TOOL_PARAMETERS = { type: 'object', properties: { input: { type: 'string', description: 'The tool’s input, as free text' } }, required: ['input'], additionalProperties: false };

/**
 * A tool's name on Chat: a namespaced tool (Codex groups its agent tools so) is flattened as
 * `namespace__name`, since Chat has no namespaces and allows no dots in names.
 */
function chatToolName(namespace: unknown, name: unknown): string {
  return typeof namespace === 'string' && namespace ? `${namespace}${NAMESPACE_SEPARATOR}${String(name)}` : String(name);
}

const NAMESPACE_SEPARATOR = '__';

function chatTool(tool: JsonObject, namespace?: string): JsonObject[] {
  const name = chatToolName(namespace, tool.name);
  if (tool.type === 'function') {
    const fn: JsonObject = { name, parameters: tool.parameters ?? { type: 'object', properties: {} } };
    if (typeof tool.description === 'string') fn.description = tool.description;
    if (typeof tool.strict === 'boolean') fn.strict = tool.strict;
    return [{ type: 'function', function: fn }];
  }
  if (tool.type === 'custom') return [{ type: 'function', function: { name, ...(typeof tool.description === 'string' ? { description: tool.description } : {}), parameters: CUSTOM_TOOL_PARAMETERS } }];
  if (tool.type === 'namespace' && namespace === undefined) return (Array.isArray(tool.tools) ? (tool.tools as JsonObject[]) : []).flatMap((inner) => chatTool(inner, String(tool.name)));
  throw builtInToolRefused(String(tool.type));
}

/** The Responses tools as Chat's function tools; a built-in tool is refused by name. */
function chatTools(tools: JsonObject[]): JsonObject[] {
  return tools.flatMap((tool) => chatTool(tool));
}

function chatToolChoice(choice: unknown): unknown {
  if (typeof choice === 'string') return choice;
  const named = choice as JsonObject | undefined;
  if (named?.type === 'function' || named?.type === 'custom') return { type: 'function', function: { name: chatToolName(named.namespace, named.name) } };
  // allowed_tools narrows the declared tools; Chat's nearest is letting the model choose (or having to).
  if (named?.type === 'allowed_tools') return named.mode === 'required' ? 'required' : 'auto';
  if (typeof named?.type === 'string') throw builtInToolRefused(named.type);
  return undefined;
}

/** Chat's assistant message that a run of assistant text and tool calls adds to. */
function assistantTurn(messages: JsonObject[]): JsonObject {
  const last = messages.at(-1);
  if (last?.role === 'assistant') return last;
  const turn: JsonObject = { role: 'assistant', content: null };
  messages.push(turn);
  return turn;
}

function addToolCall(messages: JsonObject[], id: unknown, name: unknown, args: string): void {
  const turn = assistantTurn(messages);
  const calls = (turn.tool_calls ??= []) as JsonObject[];
  calls.push({ id, type: 'function', function: { name, arguments: args } });
}

/** The input items as Chat messages. */
function chatMessages(input: unknown): JsonObject[] {
  const messages: JsonObject[] = [];
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return messages;
  for (const item of input as JsonObject[]) {
    if (typeof item !== 'object' || item === null) continue;
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
    switch (type) {
      case 'message': {
        const role = item.role === 'developer' ? 'system' : item.role;
        if (role === 'assistant') {
          const text = contentText(item.content);
          const turn = assistantTurn(messages);
          // Text after a tool call of the same turn starts a new message, as Chat orders them.
          if (turn.tool_calls) messages.push({ role: 'assistant', content: text });
          else turn.content = typeof turn.content === 'string' && turn.content ? turn.content + text : text;
        } else if (role === 'system') messages.push({ role: 'system', content: contentText(item.content) });
        else messages.push({ role: 'user', content: userContent(item.content) });
        break;
      }
      case 'function_call':
        addToolCall(messages, item.call_id, chatToolName(item.namespace, item.name), typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}));
        break;
      case 'custom_tool_call':
        addToolCall(messages, item.call_id, chatToolName(item.namespace, item.name), JSON.stringify({ input: typeof item.input === 'string' ? item.input : '' }));
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: toolOutputText(item.output) });
        break;
      // A reasoning item is the issuing upstream's (its encrypted_content only it can read): it is not sent on.
      case 'reasoning':
        break;
      case 'item_reference':
        throw refused('item_reference names an item stored by the upstream; this channel serves Responses by converting to Chat Completions, so send the item itself');
      default:
        throw refused(`The input item type ${String(type)} cannot be converted to Chat Completions for this channel`);
    }
  }
  return messages;
}

/**
 * The refusal of a Responses body that needs the upstream's stored state (previous_response_id,
 * a conversation, a stored prompt, a background run), which only a channel whose upstream serves
 * Responses can take; undefined when it needs none.
 */
export function statefulRequestRefusal(body: JsonObject | undefined): RelayError | undefined {
  if (!body) return undefined;
  for (const [field, reason] of Object.entries(STATEFUL_FIELDS)) if (body[field] !== undefined && body[field] !== null) return refused(reason);
  if (body.background === true) return refused('background responses are kept by the upstream; this channel converts to Chat Completions and cannot run one');
  return undefined;
}

/** A Responses body as an OpenAI chat body. */
function chatRequestFromResponses(body: JsonObject): JsonObject {
  const stateful = statefulRequestRefusal(body);
  if (stateful) throw stateful;
  const messages = chatMessages(body.input);
  if (typeof body.instructions === 'string' && body.instructions) messages.unshift({ role: 'system', content: body.instructions });
  const out: JsonObject = { model: body.model, messages };
  if (body.stream === true) out.stream = true;
  if (typeof body.max_output_tokens === 'number') out.max_tokens = body.max_output_tokens;
  for (const field of ['temperature', 'top_p', 'parallel_tool_calls', 'user'] as const) if (body[field] !== undefined && body[field] !== null) out[field] = body[field];
  if (out.user === undefined && typeof body.safety_identifier === 'string') out.user = body.safety_identifier;
  if (Array.isArray(body.tools) && body.tools.length > 0) out.tools = chatTools(body.tools as JsonObject[]);
  const toolChoice = body.tool_choice === undefined ? undefined : chatToolChoice(body.tool_choice);
  if (toolChoice !== undefined && out.tools) out.tool_choice = toolChoice;
  const effort = (body.reasoning as JsonObject | undefined)?.effort;
  if (typeof effort === 'string') out.reasoning_effort = effort;
  const format = ((body.text as JsonObject | undefined)?.format ?? undefined) as JsonObject | undefined;
  if (format?.type === 'json_schema') {
    const schema: JsonObject = { name: format.name ?? 'response', schema: format.schema };
    if (typeof format.description === 'string') schema.description = format.description;
    if (typeof format.strict === 'boolean') schema.strict = format.strict;
    out.response_format = { type: 'json_schema', json_schema: schema };
  } else if (format?.type === 'json_object') out.response_format = { type: 'json_object' };
  return out;
}

/** Responses' usage object. */
export function responsesUsage(usage: Usage | undefined): JsonObject {
  const counts = usage ?? fullUsage({})!;
  return {
    input_tokens: counts.promptTokens,
    input_tokens_details: { cached_tokens: counts.cachedTokens },
    output_tokens: counts.completionTokens,
    output_tokens_details: { reasoning_tokens: counts.reasoningTokens },
    total_tokens: counts.promptTokens + counts.completionTokens,
  };
}

/** Ids of the answer's items, derived from the upstream's id so one answer always converts the same way. */
function idBase(id: unknown): string {
  const base = typeof id === 'string' && id ? id.replace(/[^A-Za-z0-9]/g, '') : '';
  return base || `gw${Date.now().toString(36)}`;
}

/** A Response object around its output, as Responses answers and its lifecycle events carry it. */
function responseObject(id: string, createdAt: number, model: string, status: string, output: JsonObject[], usage: JsonObject | null, extra: JsonObject = {}): JsonObject {
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    store: false,
    text: { format: { type: 'text' } },
    usage,
    metadata: {},
    ...extra,
  };
}

function messageItem(id: string, text: string, status = 'completed'): JsonObject {
  return { type: 'message', id, status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] };
}

function reasoningItem(id: string, text: string): JsonObject {
  return { type: 'reasoning', id, summary: [{ type: 'summary_text', text }] };
}

/** A tool call as its output item: a custom (freeform) tool's call carries its text `input`; a namespaced tool's its namespace. */
function toolCallItem(id: string, callId: unknown, chatName: string, args: string, options: ClientStreamOptions, status = 'completed'): JsonObject {
  const namespace = options.toolNamespaces?.find((candidate) => chatName.startsWith(`${candidate}${NAMESPACE_SEPARATOR}`));
  const named = namespace ? { name: chatName.slice(namespace.length + NAMESPACE_SEPARATOR.length), namespace } : { name: chatName };
  if (options.customTools?.includes(chatName)) return { type: 'custom_tool_call', id, call_id: callId, ...named, input: customToolInput(args), status };
  return { type: 'function_call', id, call_id: callId, ...named, arguments: args, status };
}

function customToolInput(args: string): string {
  try {
    const parsed = JSON.parse(args) as JsonObject;
    return typeof parsed.input === 'string' ? parsed.input : args;
  } catch {
    return args;
  }
}

/** An OpenAI chat completion as a Response. */
function responseFromChat(answer: JsonObject, options: ClientStreamOptions): JsonObject {
  const base = idBase(answer.id);
  const choice = firstChoice(answer) ?? {};
  const message = (choice.message ?? {}) as JsonObject;
  const output: JsonObject[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content) output.push(reasoningItem(`rs_${base}`, message.reasoning_content));
  const text = typeof message.content === 'string' ? message.content : contentText(message.content);
  if (text) output.push(messageItem(`msg_${base}`, text));
  for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as JsonObject[]) : []) {
    const fn = (call.function ?? {}) as JsonObject;
    output.push(toolCallItem(`fc_${idBase(call.id)}`, call.id, String(fn.name ?? ''), typeof fn.arguments === 'string' ? fn.arguments : '{}', options));
  }
  const createdAt = typeof answer.created === 'number' ? answer.created : Math.floor(Date.now() / 1000);
  const status = choice.finish_reason === 'length' ? 'incomplete' : 'completed';
  return responseObject(`resp_${base}`, createdAt, options.model, status, output, responsesUsage(fullUsage(readUsage(answer.usage))));
}

/**
 * What a Responses body's tools mean for its answer: the Chat names of its custom (freeform)
 * tools, whose calls answer as custom_tool_call items, and its tool namespaces.
 */
export function responsesToolOptions(body: JsonObject | undefined): Pick<ClientStreamOptions, 'customTools' | 'toolNamespaces'> {
  if (!Array.isArray(body?.tools)) return {};
  const customTools: string[] = [];
  const toolNamespaces: string[] = [];
  for (const tool of body.tools as JsonObject[]) {
    if (tool?.type === 'custom') customTools.push(String(tool.name));
    if (tool?.type === 'namespace' && typeof tool.name === 'string' && Array.isArray(tool.tools)) {
      toolNamespaces.push(tool.name);
      for (const inner of tool.tools as JsonObject[]) if (inner?.type === 'custom') customTools.push(chatToolName(tool.name, inner.name));
    }
  }
  return { ...(customTools.length ? { customTools } : {}), ...(toolNamespaces.length ? { toolNamespaces } : {}) };
}

/** One output item being streamed. */
interface OpenItem {
  kind: 'reasoning' | 'message' | 'tool';
  index: number;
  id: string;
  text: string;
  /** Tool calls: Chat's index of the call, its id and name. */
  toolIndex?: number;
  callId?: unknown;
  name?: string;
  /** The members every event of the item begins with (`{"item_id":…,"output_index":…`), serialized once when it opens. */
  at: string;
  /** The same followed by the delta's place, up to its value. */
  deltaPrefix: string;
}

/**
 * OpenAI chunks as Responses' typed events: response.created and response.in_progress, then
 * each output item added, its deltas, and its closing events once the next item begins, then
 * response.completed (or response.incomplete) with the usage. Every event carries its
 * sequence number, as OpenAI's do.
 */
class ResponsesStreamEncoder implements StreamEncoder {
  private sequence = 0;
  private started = false;
  private failed = false;
  private id = '';
  private base = '';
  private createdAt = Math.floor(Date.now() / 1000);
  private item: OpenItem | undefined;
  private readonly output: JsonObject[] = [];
  private status = 'completed';

  constructor(private readonly options: ClientStreamOptions) {}

  encode(chunk: JsonObject): string {
    if (chunk.error) return this.error(chunk.error as JsonObject);
    let out = this.start(chunk);
    const choice = firstChoice(chunk);
    if (!choice) return out;
    const delta = (choice.delta ?? {}) as JsonObject;
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) {
      if (this.item?.kind !== 'reasoning') out += this.open('reasoning');
      out += this.reasoningDelta(delta.reasoning_content);
    }
    if (typeof delta.content === 'string' && delta.content) {
      if (this.item?.kind !== 'message') out += this.open('message');
      out += this.textDelta(delta.content);
    }
    for (const call of Array.isArray(delta.tool_calls) ? (delta.tool_calls as JsonObject[]) : []) {
      const fn = (call.function ?? {}) as JsonObject;
      const toolIndex = typeof call.index === 'number' ? call.index : undefined;
      const current = this.item;
      // Providers name the call by index, some repeating its id on every chunk: either says it is the call in flight.
      const sameCall = current?.kind === 'tool' && (toolIndex !== undefined ? current.toolIndex === toolIndex : !call.id || call.id === current.callId);
      if (!sameCall) out += this.open('tool', { toolIndex, callId: call.id, name: typeof fn.name === 'string' ? fn.name : '' });
      if (typeof fn.arguments === 'string' && fn.arguments) out += this.argumentsDelta(fn.arguments);
    }
    if (choice.finish_reason === 'length') this.status = 'incomplete';
    return out;
  }

  end(usage: Usage | undefined): string {
    if (this.failed) return '';
    const out = this.start({}) + this.close();
    const type = this.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
    return out + this.event(type, { response: this.response(this.status, this.output, responsesUsage(usage)) });
  }

  private response(status: string, output: JsonObject[], usage: JsonObject | null, extra?: JsonObject): JsonObject {
    return responseObject(this.id, this.createdAt, this.options.model, status, output, usage, extra);
  }

  private event(type: string, fields: JsonObject): string {
    return this.frame(type, JSON.stringify(fields));
  }

  /**
   * An event from its fields already serialized (an object's JSON text, `{…}`), with its type
   * and sequence number put first. Events are most of a converted stream's cost: building the
   * text directly saves copying every event's fields into a new object to serialize it again.
   * `type` is always one of this encoder's own constants, so it needs no escaping.
   */
  private frame(type: string, fieldsJson: string): string {
    const members = fieldsJson.length > 2 ? `,${fieldsJson.slice(1)}` : '}';
    return `event: ${type}\ndata: {"type":"${type}","sequence_number":${this.sequence++}${members}\n\n`;
  }

  private start(chunk: JsonObject): string {
    if (this.started) return '';
    this.started = true;
    this.base = idBase(chunk.id);
    this.id = `resp_${this.base}`;
    if (typeof chunk.created === 'number') this.createdAt = chunk.created;
    const fields = JSON.stringify({ response: this.response('in_progress', [], null) });
    return this.frame('response.created', fields) + this.frame('response.in_progress', fields);
  }

  private open(kind: OpenItem['kind'], tool?: Pick<OpenItem, 'toolIndex' | 'callId' | 'name'>): string {
    let out = this.close();
    const index = this.output.length;
    const id = kind === 'tool' && typeof tool?.callId === 'string' && tool.callId ? `fc_${idBase(tool.callId)}` : `${kind === 'reasoning' ? 'rs' : kind === 'message' ? 'msg' : 'fc'}_${this.base}_${index}`;
    const at = `{"item_id":${JSON.stringify(id)},"output_index":${index}`;
    const deltaPrefix = kind === 'tool' ? `${at},"delta":` : kind === 'message' ? `${at},"content_index":0,"delta":` : `${at},"summary_index":0,"delta":`;
    const item: OpenItem = { kind, index, id, text: '', ...tool, at, deltaPrefix };
    this.item = item;
    this.output.push({});
    if (kind === 'reasoning') {
      out += this.event('response.output_item.added', { output_index: index, item: { type: 'reasoning', id, summary: [] } });
      out += this.event('response.reasoning_summary_part.added', { item_id: id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } });
    } else if (kind === 'message') {
      out += this.event('response.output_item.added', { output_index: index, item: { type: 'message', id, status: 'in_progress', role: 'assistant', content: [] } });
      out += this.event('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } });
    } else {
      const added = toolCallItem(id, item.callId, item.name ?? '', '', this.options, 'in_progress');
      if (added.type === 'custom_tool_call') added.input = '';
      out += this.event('response.output_item.added', { output_index: index, item: added });
    }
    return out;
  }

  private isCustom(item: OpenItem): boolean {
    return item.kind === 'tool' && (this.options.customTools?.includes(item.name ?? '') ?? false);
  }

  private reasoningDelta(delta: string): string {
    const item = this.item as OpenItem;
    item.text += delta;
    return this.frame('response.reasoning_summary_text.delta', `${item.deltaPrefix}${JSON.stringify(delta)}}`);
  }

  private textDelta(delta: string): string {
    const item = this.item as OpenItem;
    item.text += delta;
    return this.frame('response.output_text.delta', `${item.deltaPrefix}${JSON.stringify(delta)},"logprobs":[]}`);
  }

  /** A function call's arguments stream as they come; a custom tool's input waits for the whole JSON, to be unwrapped. */
  private argumentsDelta(delta: string): string {
    const item = this.item as OpenItem;
    item.text += delta;
    if (this.isCustom(item)) return '';
    return this.frame('response.function_call_arguments.delta', `${item.deltaPrefix}${JSON.stringify(delta)}}`);
  }

  /** The closing events of the item being streamed, and its final shape kept for response.completed. */
  private close(): string {
    const item = this.item;
    if (!item) return '';
    this.item = undefined;
    const at = item.at;
    let out = '';
    let done: JsonObject;
    if (item.kind === 'reasoning') {
      // The text is serialized once for its two events; the part is reasoningItem's summary part.
      const text = JSON.stringify(item.text);
      out += this.frame('response.reasoning_summary_text.done', `${at},"summary_index":0,"text":${text}}`);
      out += this.frame('response.reasoning_summary_part.done', `${at},"summary_index":0,"part":{"type":"summary_text","text":${text}}}`);
      done = reasoningItem(item.id, item.text);
    } else if (item.kind === 'message') {
      // As above; the part is messageItem's output_text part.
      const text = JSON.stringify(item.text);
      out += this.frame('response.output_text.done', `${at},"content_index":0,"text":${text},"logprobs":[]}`);
      out += this.frame('response.content_part.done', `${at},"content_index":0,"part":{"type":"output_text","text":${text},"annotations":[],"logprobs":[]}}`);
      done = messageItem(item.id, item.text);
    } else {
      done = toolCallItem(item.id, item.callId, item.name ?? '', item.text || '{}', this.options);
      if (done.type === 'custom_tool_call') {
        const input = JSON.stringify(done.input);
        out += this.frame('response.custom_tool_call_input.delta', `${at},"delta":${input}}`);
        out += this.frame('response.custom_tool_call_input.done', `${at},"input":${input}}`);
      } else {
        out += this.frame('response.function_call_arguments.done', `${at},"arguments":${JSON.stringify(done.arguments)}}`);
      }
    }
    this.output[item.index] = done;
    return out + this.frame('response.output_item.done', `{"output_index":${item.index},"item":${JSON.stringify(done)}}`);
  }


  /** An in-stream error as response.failed, which ends the stream as OpenAI's does. */
  private error(error: JsonObject): string {
    this.failed = true;
    const out = this.start({});
    const message = typeof error.message === 'string' ? error.message : 'The upstream stream failed';
    const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : 'server_error';
    return out + this.event('response.failed', { response: this.response('failed', this.output.filter((item) => item.type !== undefined), null, { error: { code, message } }) });
  }
}
