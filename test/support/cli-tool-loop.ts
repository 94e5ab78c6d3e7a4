import { spawn } from 'node:child_process';
import { anthropicReply } from './mock-anthropic';
import { geminiReply } from './mock-gemini';
import type { MockReply, ReceivedRequest } from './mock-upstream';

/**
 * What the real coding-agent CLI tests (Codex, Claude Code) share: mock upstreams of every
 * format that ask once for the agent's shell tool and answer once its result came back, and a
 * bounded headless run of the CLI.
 */

/** The tool call a mock asks for: the tool's name and its arguments. */
export interface PlannedToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** Picks, from the tools a request declares (OpenAI function tools, Claude tools or Gemini declarations), the call the mock asks for. */
export type ToolCallPlanner = (tools: Array<Record<string, unknown>>) => PlannedToolCall | undefined;

/** Whether the conversation already carries a tool's result (a Chat tool message or a Claude tool_result). */
export function hasToolResult(request: ReceivedRequest): boolean {
  const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages.some((message) => message.role === 'tool' || (Array.isArray(message.content) && (message.content as Array<{ type?: string }>).some((block) => block.type === 'tool_result')));
}

/** A Chat Completions upstream (streaming) that asks for the tool once, then answers `finalText`; each answer uses `usage`. */
export function chatToolLoop(plan: ToolCallPlanner, finalText: string, usage = { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 }) {
  return (request: ReceivedRequest): MockReply | undefined => {
    if (!request.path.endsWith('/chat/completions')) return undefined;
    const base = { id: 'chatcmpl-cli', object: 'chat.completion.chunk', created: 1700000000, model: request.body.model };
    const call = hasToolResult(request) ? undefined : plan((request.body.tools ?? []) as Array<Record<string, unknown>>);
    const deltas = call ? [{ role: 'assistant', tool_calls: [{ index: 0, id: 'call_cli', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] }] : [{ role: 'assistant', content: finalText }];
    const events = deltas.map((delta) => JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] }));
    events.push(JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: call ? 'tool_calls' : 'stop' }] }), JSON.stringify({ ...base, choices: [], usage }), '[DONE]');
    return { sse: events };
  };
}

/** Claude stream events as the SSE text Anthropic sends. */
export function claudeSse(events: Array<Record<string, unknown>>): MockReply {
  return { status: 200, text: events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join(''), contentType: 'text/event-stream' };
}

/** Blocks a Claude answer opens before its tool_use (thinking with its signature, redacted thinking), each with its stream events. */
export interface ClaudeLeadingBlock {
  start: Record<string, unknown>;
  deltas: Array<Record<string, unknown>>;
}

/** The tool_use answer's stream: leading blocks, then the tool_use, stop_reason tool_use; 100 input and 40 output tokens. */
export function claudeToolUseEvents(model: unknown, call: PlannedToolCall, leading: ClaudeLeadingBlock[] = []): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [{ type: 'message_start', message: { id: 'msg_cli', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { input_tokens: 100, output_tokens: 1 } } }];
  leading.forEach((block, index) => {
    events.push({ type: 'content_block_start', index, content_block: block.start }, ...block.deltas.map((delta) => ({ type: 'content_block_delta', index, delta })), { type: 'content_block_stop', index });
  });
  const index = leading.length;
  events.push(
    { type: 'content_block_start', index, content_block: { type: 'tool_use', id: 'toolu_cli', name: call.name, input: {} } },
    { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) } },
    { type: 'content_block_stop', index },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 40 } },
    { type: 'message_stop' },
  );
  return events;
}

/** A Claude upstream that asks for the tool once (tool_use, after `leading` blocks), then answers as the mock does. */
export function claudeToolLoop(plan: ToolCallPlanner, leading: ClaudeLeadingBlock[] = []) {
  return (request: ReceivedRequest): MockReply => {
    if (!request.path.startsWith('/v1/messages') || hasToolResult(request) || request.body.stream !== true) return anthropicReply(request);
    const call = plan((request.body.tools ?? []) as Array<Record<string, unknown>>);
    if (!call) return anthropicReply(request);
    return claudeSse(claudeToolUseEvents(request.body.model, call, leading));
  };
}

/** A Responses upstream (as OpenAI's, streaming) that asks for the tool once, then answers `finalText`; 50 input and 5 output tokens each. */
export function responsesToolLoop(plan: ToolCallPlanner, finalText: string) {
  return (request: ReceivedRequest): MockReply | undefined => {
    if (!request.path.startsWith('/v1/responses')) return undefined;
    const input = (request.body.input ?? []) as Array<{ type?: string; output?: unknown }>;
    const result = input.find((item) => item.type === 'function_call_output');
    const call = result ? undefined : plan((request.body.tools ?? []) as Array<Record<string, unknown>>);
    const item = call
      ? { type: 'function_call', id: 'fc_cli', call_id: 'call_cli', name: call.name, arguments: JSON.stringify(call.args), status: 'completed' }
      : { type: 'message', id: 'msg_cli', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: finalText, annotations: [] }] };
    const response = { id: 'resp_cli', object: 'response', created_at: 1700000000, model: request.body.model, output: [item], usage: { input_tokens: 50, output_tokens: 5, total_tokens: 55 } };
    // A message streams as OpenAI's does: the item opens empty, its text part comes as deltas.
    const part = { type: 'output_text', text: finalText, annotations: [] };
    const text = call
      ? []
      : [
          { type: 'response.content_part.added', item_id: item.id, output_index: 0, content_index: 0, part: { ...part, text: '' } },
          { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: finalText },
          { type: 'response.output_text.done', item_id: item.id, output_index: 0, content_index: 0, text: finalText },
          { type: 'response.content_part.done', item_id: item.id, output_index: 0, content_index: 0, part },
        ];
    const events = [
      { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } },
      { type: 'response.output_item.added', output_index: 0, item: call ? item : { ...item, status: 'in_progress', content: [] } },
      ...text,
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: { ...response, status: 'completed' } },
    ];
    return { sse: events.map((event, sequence) => JSON.stringify({ ...event, sequence_number: sequence })) };
  };
}

/**
 * A Gemini upstream that asks for the tool `times` times, one call a turn (functionCall, with no
 * id, as Gemini's API sends it; 30 prompt and 10 candidate tokens), then answers as the mock does.
 */
export function geminiToolLoop(plan: ToolCallPlanner, times = 1) {
  return (request: ReceivedRequest): MockReply => {
    const contents = (request.body.contents ?? []) as Array<{ parts?: Array<Record<string, unknown>> }>;
    const answered = contents.flatMap((content) => content.parts ?? []).filter((part) => part.functionResponse).length;
    const declarations = ((request.body.tools ?? []) as Array<{ functionDeclarations?: Array<Record<string, unknown>> }>).flatMap((tool) => tool.functionDeclarations ?? []);
    const call = answered >= times ? undefined : plan(declarations);
    if (!call || !request.path.includes(':streamGenerateContent')) return geminiReply(request);
    const event = { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: call.name, args: call.args } }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 10, totalTokenCount: 40 } };
    return { status: 200, text: `data: ${JSON.stringify(event)}\r\n\r\n`, contentType: 'text/event-stream' };
  };
}

/** How a CLI run ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a CLI headless: stdin closed, only the given environment (no inherited keys or proxies),
 * in a process group of its own that is ended whole, by its id, when it runs past `timeoutMs`.
 */
export function runCli(bin: string, args: string[], options: { cwd?: string; env: Record<string, string>; timeoutMs: number }): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The failure message of a run that did not exit 0: its exit code and the ends of its output. */
export function failedRun(name: string, run: CliRun): string {
  return `${name} exited ${String(run.code)}:\n${run.stderr.slice(-4000)}\n${run.stdout.slice(-2000)}`;
}
