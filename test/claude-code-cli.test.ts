import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acceptsAnthropicBeta, CHANNEL_TYPE } from '../src/modules/channels/channel-types';
import { chatToolLoop, claudeToolLoop, failedRun, geminiToolLoop, responsesToolLoop, runCli, type ClaudeLeadingBlock, type CliRun, type PlannedToolCall } from './support/cli-tool-loop';
import { CLAUDE_REPLY_TEXT } from './support/mock-anthropic';
import { CAT_PNG, GEMINI_REPLY_TEXT } from './support/mock-gemini';
import { BEDROCK_KEY, bedrockReply } from './support/mock-bedrock';
import { MockUpstream, type MockReply, type ReceivedRequest } from './support/mock-upstream';
import { serviceAccountKey, vertexReply } from './support/mock-vertex';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';

/**
 * The real Claude Code CLI (`claude -p`, the devDependency @anthropic-ai/claude-code) against
 * the gateway's /v1/messages, answered by Claude channels on Anthropic, Bedrock and Vertex (passed
 * through: Claude Code's betas fitted to each host, thinking blocks round-tripped), an OpenAI channel
 * whose upstream answers only on Responses, a Chat-only OpenAI-format channel and a Gemini
 * channel (converted). Each gives a plain answer and runs a tool loop: the mock asks for Bash,
 * Claude Code runs it in a scratch folder, and the result goes back. The CLI's environment turns
 * its telemetry, update checks and other traffic off, and a proxy on loopback that refuses every
 * request stands in for the rest of the network, so a call off loopback would show.
 */
const CLI_TIMEOUT_MS = 90_000;
const PROOF = 'proof-of-claude-code-tool-loop';
const PLAIN_ANSWER = 'A plain answer from the mock';
const CLAUDE_MODELS = ['claude-test', 'claude-bedrock', 'claude-vertex'];
const PRICES = {
  ModelRatio: { 'gpt-chat': 1, 'gpt-resp': 1, 'gemini-test': 1, ...Object.fromEntries(CLAUDE_MODELS.map((model) => [model, 1])) },
  CompletionRatio: { 'gpt-chat': 2, 'gpt-resp': 2, 'gemini-test': 2, ...Object.fromEntries(CLAUDE_MODELS.map((model) => [model, 5])) },
  CacheRatio: { 'gemini-test': 0.5, ...Object.fromEntries(CLAUDE_MODELS.map((model) => [model, 0.1])) },
  CreateCacheRatio: Object.fromEntries(CLAUDE_MODELS.map((model) => [model, 1.25])),
};

/** Thinking, with its signature, and redacted thinking ahead of the tool_use: Claude Code must send them back as they came. */
const THINKING_BLOCKS: ClaudeLeadingBlock[] = [
  {
    start: { type: 'thinking', thinking: '', signature: '' },
    deltas: [
      { type: 'thinking_delta', thinking: 'The user wants the proof file written.' },
      { type: 'signature_delta', signature: 'EqQBCkYIBxgCKkCsig-of-the-thinking-block==' },
    ],
  },
  { start: { type: 'redacted_thinking', data: 'EmwKAhgBEgy-redacted-thinking-payload==' }, deltas: [] },
];

/** Claude Code's Bash tool, asked to write the proof file in the working folder. */
function bashCall(tools: Array<Record<string, unknown>>): PlannedToolCall | undefined {
  const tool = tools.map((entry) => (entry.function ?? entry) as Record<string, unknown>).find((fn) => fn.name === 'Bash');
  return tool ? { name: 'Bash', args: { command: `echo ${PROOF} > proof.txt && cat proof.txt`, description: 'Write the proof file' } } : undefined;
}

function noToolCall(): undefined {
  return undefined;
}

/** A proxy on loopback that records whatever is sent through it and refuses it: the CLI's only way off the machine. */
class RefusingProxy {
  readonly attempts: string[] = [];
  url = '';
  private readonly server = http.createServer((request, response) => {
    this.attempts.push(`${request.method ?? ''} ${request.url ?? ''}`);
    response.writeHead(403).end();
  });

  async start(): Promise<this> {
    this.server.on('connect', (request: http.IncomingMessage, socket: Socket) => {
      this.attempts.push(`CONNECT ${request.url ?? ''}`);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('Claude Code (the real CLI) through the gateway, on every channel format', () => {
  let bed: NativeRelayTestbed;
  let claude: MockUpstream;
  let responsesOnly: MockUpstream;
  let chatOnly: MockUpstream;
  let gemini: MockUpstream;
  let bedrock: MockUpstream;
  let vertex: MockUpstream;
  let proxy: RefusingProxy;
  let scratch: string;

  beforeAll(async () => {
    bed = await startNativeRelayTestbed(PRICES);
    [claude, responsesOnly, chatOnly, gemini, bedrock, vertex] = await Promise.all(Array.from({ length: 6 }, () => new MockUpstream().start()));
    proxy = await new RefusingProxy().start();
    await bed.seed.createChannel({ name: 'claude', type: 14, base_url: claude.url, models: 'claude-test', key: 'sk-ant-upstream' });
    await bed.seed.createChannel({ name: 'responses-only', type: 1, base_url: responsesOnly.url, models: 'gpt-resp', setting: JSON.stringify({ responses_only: true }) });
    await bed.seed.createChannel({ name: 'chat-only', type: 43, base_url: chatOnly.url, models: 'gpt-chat' });
    await bed.seed.createChannel({ name: 'gemini', type: 24, base_url: gemini.url, models: 'gemini-test', key: 'AIza-upstream' });
    const bedrockKey = `${BEDROCK_KEY.accessKeyId}|${BEDROCK_KEY.secretAccessKey}|${BEDROCK_KEY.region}`;
    await bed.seed.createChannel({ name: 'bedrock', type: 33, base_url: bedrock.url, models: 'claude-bedrock', key: bedrockKey, model_mapping: JSON.stringify({ 'claude-bedrock': 'anthropic.claude-sonnet-4-5-v1:0' }) });
    await bed.seed.createChannel({ name: 'vertex', type: 41, base_url: vertex.url, other: 'us-east5', models: 'claude-vertex', key: serviceAccountKey(`${vertex.url}/token`) });
    scratch = mkdtempSync(path.join(tmpdir(), 'claude-code-cli-'));
  });
  afterAll(async () => {
    await bed.stop();
    await Promise.all([claude, responsesOnly, chatOnly, gemini, bedrock, vertex, proxy].map((server) => server.stop()));
    rmSync(scratch, { recursive: true, force: true });
  });
  let logsBefore: number;
  beforeEach(async () => {
    for (const mock of [claude, responsesOnly, chatOnly, gemini, bedrock, vertex]) mock.reset();
    await bed.seed.flush();
    logsBefore = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).length;
  });
  afterEach(() => expect(proxy.attempts).toEqual([]));

  /** `claude -p` with a scratch HOME and working folder, stdin closed, the gateway's token as its key, the given tools allowed. */
  async function claudePrint(model: string, name: string, prompt: string, tools = ['Bash'], credential: 'ANTHROPIC_API_KEY' | 'ANTHROPIC_AUTH_TOKEN' = 'ANTHROPIC_API_KEY'): Promise<CliRun & { workdir: string }> {
    const home = path.join(scratch, name, 'home');
    const workdir = path.join(scratch, name, 'work');
    mkdirSync(home, { recursive: true });
    mkdirSync(workdir, { recursive: true });
    const proxyUrl = proxy.url;
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ANTHROPIC_BASE_URL: bed.app.baseUrl,
      // ANTHROPIC_API_KEY travels as x-api-key, ANTHROPIC_AUTH_TOKEN as a Bearer token: the gateway takes both.
      [credential]: bed.token.apiKey,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_BUG_COMMAND: '1',
      HTTP_PROXY: proxyUrl,
      HTTPS_PROXY: proxyUrl,
      NO_PROXY: '127.0.0.1,localhost',
      NO_COLOR: '1',
    };
    const bin = path.join(__dirname, '..', 'node_modules', '.bin', 'claude');
    const run = await runCli(bin, ['-p', prompt, '--model', model, '--allowedTools', tools.join(','), '--output-format', 'text'], { cwd: workdir, env, timeoutMs: CLI_TIMEOUT_MS });
    if (run.code !== 0) throw new Error(failedRun('claude', run));
    return { ...run, workdir };
  }

  /** The calls a mock received on one path, and the test's log rows for the model, once every settlement is written. */
  async function callsAndLogs(mock: MockUpstream, matches: (request: ReceivedRequest) => boolean, model: string) {
    await bed.seed.flush();
    const logs = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).slice(logsBefore).filter((log) => log.model_name === model);
    return { calls: mock.requests.filter(matches), logs };
  }

  /** The proof file the tool wrote, and the proof in the last call's conversation: the tool ran and its result went back. */
  function expectToolRan(workdir: string, lastCall: ReceivedRequest | undefined): void {
    const proof = path.join(workdir, 'proof.txt');
    expect(existsSync(proof) && readFileSync(proof, 'utf8').trim()).toBe(PROOF);
    expect(JSON.stringify(lastCall?.body)).toContain(PROOF);
  }

  const isMessages = (request: ReceivedRequest) => request.path.startsWith('/v1/messages');
  const isResponses = (request: ReceivedRequest) => request.path.startsWith('/v1/responses');
  const isChat = (request: ReceivedRequest) => request.path.endsWith('/chat/completions');
  const isGeminiStream = (request: ReceivedRequest) => request.path.includes(':streamGenerateContent');

  /** One host of Claude: its mock, how it answers as Claude, which of its calls are messages, and the anthropic-beta names a call carried. */
  interface ClaudeHost {
    host: string;
    model: string;
    mock: () => MockUpstream;
    serve: (answerAsClaude: (request: ReceivedRequest) => MockReply) => (request: ReceivedRequest) => MockReply | Promise<MockReply>;
    isCall: (request: ReceivedRequest) => boolean;
    betasOf: (request: ReceivedRequest) => string[];
  }
  const headerBetas = (request: ReceivedRequest) => String(request.headers['anthropic-beta'] ?? '').split(',').filter(Boolean);
  const CLAUDE_HOSTS: ClaudeHost[] = [
    { host: 'Anthropic', model: 'claude-test', mock: () => claude, serve: (answer) => answer, isCall: isMessages, betasOf: headerBetas },
    { host: 'Bedrock', model: 'claude-bedrock', mock: () => bedrock, serve: (answer) => (request) => bedrockReply(request, answer), isCall: (request) => request.path.startsWith('/model/'), betasOf: (request) => (request.body.anthropic_beta ?? []) as string[] },
    { host: 'Vertex', model: 'claude-vertex', mock: () => vertex, serve: (answer) => (request) => vertexReply(request, answer), isCall: (request) => request.path.includes('/publishers/anthropic/'), betasOf: headerBetas },
  ];

  describe.each(CLAUDE_HOSTS)('a Claude channel on $host (passed through)', ({ host, model, mock, serve, isCall, betasOf }) => {
    /** Claude Code's betas reach the host when it takes them all (Anthropic); elsewhere only those of the catalogue's list for the host, and its mock refuses any other. */
    function expectBetasFor(call: ReceivedRequest): void {
      const betas = betasOf(call);
      if (host === 'Anthropic') expect(betas).toContain('claude-code-20250219');
      else expect(betas.length > 0 && betas.every((name) => acceptsAnthropicBeta(host === 'Bedrock' ? CHANNEL_TYPE.AWS : CHANNEL_TYPE.VERTEX, name))).toBe(true);
    }

    it(
      'gives a plain answer, billed with the cache read and write at their ratios',
      async () => {
        mock().handler = serve(claudeToolLoop(noToolCall));
        const run = await claudePrint(model, `${host}-plain`, 'Say hello.');
        expect(run.stdout).toContain(CLAUDE_REPLY_TEXT);
        const { calls, logs } = await callsAndLogs(mock(), isCall, model);
        expect(calls).toHaveLength(1);
        expectBetasFor(calls[0]);
        // The mock's usage: 100 input + 2000 cache read × 0.1 + 500 cache write × 1.25 + 40 output × 5.
        expect(logs).toHaveLength(1);
        expect(logs[0]).toMatchObject({ quota: 1125, prompt_tokens: 2600, completion_tokens: 40 });
      },
      CLI_TIMEOUT_MS + 10_000,
    );

    it(
      'runs a tool loop, the thinking and redacted_thinking blocks sent back with their signatures unchanged',
      async () => {
        mock().handler = serve(claudeToolLoop(bashCall, THINKING_BLOCKS));
        const run = await claudePrint(model, `${host}-tools`, 'Write the proof file, then say done.');
        const { calls, logs } = await callsAndLogs(mock(), isCall, model);
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expectToolRan(run.workdir, calls.at(-1));
        expectBetasFor(calls.at(-1)!);
        const messages = calls.at(-1)?.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
        expect(messages.find((message) => message.role === 'assistant')?.content.slice(0, 2)).toEqual([
          { type: 'thinking', thinking: 'The user wants the proof file written.', signature: 'EqQBCkYIBxgCKkCsig-of-the-thinking-block==' },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy-redacted-thinking-payload==' },
        ]);
        // Claude Code's cache breakpoint on the tool result reaches the host.
        expect(JSON.stringify(messages.at(-1))).toContain('"cache_control":{"type":"ephemeral"}');
        // The tool_use answer 100 + 40 × 5; the final answer as in the plain case.
        expect(logs).toHaveLength(calls.length);
        expect(logs[0]).toMatchObject({ quota: 300, prompt_tokens: 100, completion_tokens: 40 });
        expect(logs.at(-1)).toMatchObject({ quota: 1125, prompt_tokens: 2600, completion_tokens: 40 });
      },
      CLI_TIMEOUT_MS + 10_000,
    );
  });

  describe.each([
    { channel: 'an OpenAI channel whose upstream answers only on Responses', model: 'gpt-resp', mock: () => responsesOnly, answer: () => responsesToolLoop(noToolCall, PLAIN_ANSWER), isCall: isResponses },
    { channel: 'a Chat-only OpenAI-format channel', model: 'gpt-chat', mock: () => chatOnly, answer: () => chatToolLoop(noToolCall, PLAIN_ANSWER), isCall: isChat },
  ])('$channel (converted)', ({ model, mock, answer, isCall }) => {
    it(
      'gives a plain answer, billed from the upstream usage',
      async () => {
        mock().handler = answer();
        const run = await claudePrint(model, `${model}-plain`, 'Say hello.');
        expect(run.stdout).toContain(PLAIN_ANSWER);
        const { calls, logs } = await callsAndLogs(mock(), isCall, model);
        expect(calls).toHaveLength(1);
        // 50 prompt tokens + 5 completion × 2.
        expect(logs).toHaveLength(1);
        expect(logs[0]).toMatchObject({ quota: 60, prompt_tokens: 50, completion_tokens: 5 });
      },
      CLI_TIMEOUT_MS + 10_000,
    );
  });

  describe('an OpenAI channel whose upstream answers only on Responses (converted)', () => {
    it(
      'runs a tool loop: function_call to tool_use, the tool_result back as function_call_output',
      async () => {
        responsesOnly.handler = responsesToolLoop(bashCall, `Done: ${PROOF}`);
        const run = await claudePrint('gpt-resp', 'responses-tools', 'Write the proof file, then say done.');
        expect(run.stdout).toContain(`Done: ${PROOF}`);
        const { calls, logs } = await callsAndLogs(responsesOnly, isResponses, 'gpt-resp');
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expectToolRan(run.workdir, calls.at(-1));
        const output = (calls.at(-1)?.body.input as Array<{ type?: string; call_id?: string; output?: unknown }>).find((item) => item.type === 'function_call_output');
        expect(output).toMatchObject({ call_id: 'call_cli' });
        expect(JSON.stringify(output?.output)).toContain(PROOF);
        expect(logs).toHaveLength(calls.length);
        for (const log of logs) expect(log).toMatchObject({ quota: 60, prompt_tokens: 50, completion_tokens: 5 });
      },
      CLI_TIMEOUT_MS + 10_000,
    );
  });

  describe('a Chat-only OpenAI-format channel (converted)', () => {
    it(
      'runs a tool loop: tool_calls to tool_use, the tool_result back as a tool message',
      async () => {
        chatOnly.handler = chatToolLoop(bashCall, `Done: ${PROOF}`);
        const run = await claudePrint('gpt-chat', 'chat-tools', 'Write the proof file, then say done.');
        expect(run.stdout).toContain(`Done: ${PROOF}`);
        const { calls, logs } = await callsAndLogs(chatOnly, isChat, 'gpt-chat');
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expectToolRan(run.workdir, calls.at(-1));
        const messages = calls.at(-1)?.body.messages as Array<{ role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown }>;
        expect(messages.find((message) => message.role === 'assistant')?.tool_calls).toEqual([{ id: 'call_cli', type: 'function', function: { name: 'Bash', arguments: JSON.stringify(bashCall([{ name: 'Bash' }])?.args) } }]);
        expect(messages.find((message) => message.role === 'tool')).toMatchObject({ tool_call_id: 'call_cli' });
        expect(logs).toHaveLength(calls.length);
        for (const log of logs) expect(log).toMatchObject({ quota: 60, prompt_tokens: 50, completion_tokens: 5 });
      },
      CLI_TIMEOUT_MS + 10_000,
    );

    it(
      'sends the image a tool read back as an image part (a tool message carries text only)',
      async () => {
        const workdir = path.join(scratch, 'chat-image', 'work');
        mkdirSync(workdir, { recursive: true });
        writeFileSync(path.join(workdir, 'cat.png'), CAT_PNG);
        const readImage = (tools: Array<Record<string, unknown>>) => (tools.some((tool) => (tool.function as { name?: string } | undefined)?.name === 'Read') ? { name: 'Read', args: { file_path: path.join(workdir, 'cat.png') } } : undefined);
        chatOnly.handler = chatToolLoop(readImage, 'A one-pixel image.');
        const run = await claudePrint('gpt-chat', 'chat-image', 'What is in cat.png?', ['Read']);
        expect(run.stdout).toContain('A one-pixel image.');
        const { calls } = await callsAndLogs(chatOnly, isChat, 'gpt-chat');
        const messages = calls.at(-1)?.body.messages as Array<{ role: string; content: unknown }>;
        const toolAt = messages.findIndex((message) => message.role === 'tool');
        expect(toolAt).toBeGreaterThan(0);
        const image = messages.slice(toolAt + 1).find((message) => message.role === 'user' && JSON.stringify(message.content).includes('image_url'));
        expect(JSON.stringify(image?.content)).toContain(`;base64,${CAT_PNG.toString('base64')}`);
      },
      CLI_TIMEOUT_MS + 10_000,
    );
  });

  describe('a Gemini channel (converted)', () => {
    it(
      'gives a plain answer (the token given as ANTHROPIC_AUTH_TOKEN)',
      async () => {
        gemini.handler = geminiToolLoop(noToolCall);
        const run = await claudePrint('gemini-test', 'gemini-plain', 'Say hello.', ['Bash'], 'ANTHROPIC_AUTH_TOKEN');
        expect(run.stdout).toContain(GEMINI_REPLY_TEXT);
        const { calls, logs } = await callsAndLogs(gemini, isGeminiStream, 'gemini-test');
        expect(calls).toHaveLength(1);
        // Claude Code's conversation reaches Gemini whole: its system prompt and the user's words.
        expect(calls[0].body.systemInstruction).toBeDefined();
        expect(JSON.stringify(calls[0].body.contents)).toContain('Say hello.');
        // The mock's usage: 30 prompt, 20 of them cached (10 + 20 × 0.5), and 10 + 5 thinking completion tokens × 2.
        expect(logs).toHaveLength(1);
        expect(logs[0]).toMatchObject({ quota: 50, prompt_tokens: 30, completion_tokens: 15 });
        expect(logs[0].other).toMatchObject({ cache_tokens: 20, cache_ratio: 0.5 });
      },
      CLI_TIMEOUT_MS + 10_000,
    );

    it(
      'runs a tool loop: functionCall to tool_use, the tool_result back as a functionResponse, turn after turn',
      async () => {
        // Two calls in two turns: Gemini's calls have no ids, and Claude Code drops a tool_use whose id an earlier turn used.
        gemini.handler = geminiToolLoop(bashCall, 2);
        const run = await claudePrint('gemini-test', 'gemini-tools', 'Write the proof file, then say done.', ['Bash'], 'ANTHROPIC_AUTH_TOKEN');
        const { calls, logs } = await callsAndLogs(gemini, isGeminiStream, 'gemini-test');
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expectToolRan(run.workdir, calls.at(-1));
        expect(calls).toHaveLength(3);
        const parts = (calls.at(-1)?.body.contents as Array<{ parts: Array<Record<string, unknown>> }>).flatMap((content) => content.parts);
        expect(parts.filter((part) => part.functionCall)).toHaveLength(2);
        expect(parts.filter((part) => part.functionResponse)).toEqual([expect.objectContaining({ functionResponse: expect.objectContaining({ name: 'Bash' }) }), expect.objectContaining({ functionResponse: expect.objectContaining({ name: 'Bash' }) })]);
        // Each functionCall answer 30 + 10 × 2; the final answer as in the plain case.
        expect(logs).toHaveLength(calls.length);
        expect(logs.slice(0, 2)).toEqual([expect.objectContaining({ quota: 50, prompt_tokens: 30, completion_tokens: 10 }), expect.objectContaining({ quota: 50, prompt_tokens: 30, completion_tokens: 10 })]);
        expect(logs.at(-1)).toMatchObject({ quota: 50, prompt_tokens: 30, completion_tokens: 15 });
      },
      CLI_TIMEOUT_MS + 10_000,
    );
  });
});
