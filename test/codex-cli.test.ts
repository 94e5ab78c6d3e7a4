import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chatToolLoop, claudeToolLoop, failedRun, geminiToolLoop, responsesToolLoop, runCli, type CliRun, type PlannedToolCall } from './support/cli-tool-loop';
import { MockSocketUpstream } from './support/mock-socket-upstream';
import { MockUpstream } from './support/mock-upstream';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';

/**
 * The real Codex CLI (`codex exec`, a devDependency) against the gateway, with a custom provider
 * speaking Responses (`wire_api = "responses"`), answered by channels that do not serve
 * Responses (a Chat-only OpenAI-format channel, a Claude and a Gemini channel) and by one that
 * does (passed through). Each run is a tool loop:
 * the mock asks for a shell command, Codex runs it in a scratch folder, and the result goes back.
 */
const CODEX_TIMEOUT_MS = 90_000;
const PROOF = 'proof-of-tool-loop';
const PRICES = {
  ModelRatio: { 'gpt-chat': 1, 'gpt-resp': 1, 'claude-test': 1, 'gemini-test': 1, 'gpt-resp-ws': 1 },
  CompletionRatio: { 'gpt-chat': 2, 'gpt-resp': 2, 'gpt-resp-ws': 2, 'claude-test': 5, 'gemini-test': 2 },
  CacheRatio: { 'claude-test': 0.1 },
  CreateCacheRatio: { 'claude-test': 1.25 },
};

/** The shell tool Codex declared, and arguments for it that write the proof file in the working folder. */
function shellCall(tools: Array<Record<string, unknown>>): PlannedToolCall | undefined {
  const tool = tools
    .map((entry) => ((entry.function ?? entry) as Record<string, unknown>))
    .find((fn) => typeof fn.name === 'string' && /shell|exec_command/.test(fn.name));
  if (!tool) return undefined;
  const properties = ((tool.parameters as Record<string, unknown> | undefined)?.properties ?? (tool.input_schema as Record<string, unknown> | undefined)?.properties ?? {}) as Record<string, { type?: string }>;
  const script = `echo ${PROOF} > proof.txt && cat proof.txt`;
  const command = properties.command?.type === 'array' ? ['bash', '-lc', script] : script;
  const key = properties.command ? 'command' : properties.cmd ? 'cmd' : 'command';
  return { name: tool.name as string, args: { [key]: command } };
}

describe('the Codex CLI through the gateway, on every channel format', () => {
  let bed: NativeRelayTestbed;
  let chatOnly: MockUpstream;
  let claude: MockUpstream;
  let responsesUpstream: MockUpstream;
  let gemini: MockUpstream;
  let scratch: string;

  beforeAll(async () => {
    bed = await startNativeRelayTestbed(PRICES);
    [chatOnly, claude, responsesUpstream, gemini] = await Promise.all([new MockUpstream().start(), new MockUpstream().start(), new MockUpstream().start(), new MockUpstream().start()]);
    await bed.seed.createChannel({ name: 'responses', type: 1, base_url: responsesUpstream.url, models: 'gpt-resp' });
    await bed.seed.createChannel({ name: 'gemini', type: 24, base_url: gemini.url, models: 'gemini-test', key: 'AIza-upstream' });
    await bed.seed.createChannel({ name: 'chat-only', type: 43, base_url: chatOnly.url, models: 'gpt-chat' });
    await bed.seed.createChannel({ name: 'claude', type: 14, base_url: claude.url, models: 'claude-test', key: 'sk-ant-upstream' });
    scratch = mkdtempSync(path.join(tmpdir(), 'codex-cli-'));
  });
  afterAll(async () => {
    await bed.stop();
    await Promise.all([chatOnly.stop(), claude.stop(), responsesUpstream.stop(), gemini.stop()]);
    rmSync(scratch, { recursive: true, force: true });
  });
  beforeEach(() => {
    for (const mock of [chatOnly, claude, responsesUpstream, gemini]) mock.reset();
    chatOnly.handler = chatToolLoop(shellCall, `Done: ${PROOF}`);
    claude.handler = claudeToolLoop(shellCall);
    responsesUpstream.handler = responsesToolLoop(shellCall, `Done: ${PROOF}`);
    gemini.handler = geminiToolLoop(shellCall);
  });

  /** Runs `codex exec` with a scratch HOME and CODEX_HOME, stdin closed, bounded in time. */
  async function codexExec(model: string, name: string, transport: 'http' | 'websocket' = 'http'): Promise<CliRun & { workdir: string }> {
    const home = path.join(scratch, name, 'home');
    const codexHome = path.join(home, '.codex');
    const workdir = path.join(scratch, name, 'work');
    mkdirSync(codexHome, { recursive: true });
    mkdirSync(workdir, { recursive: true });
    writeFileSync(
      path.join(codexHome, 'config.toml'),
      [
        `model = "${model}"`,
        'model_provider = "gateway"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        'check_for_update_on_startup = false',
        // web_search is built into OpenAI's Responses API: a channel that converts refuses it (400), so Codex goes without.
        'web_search = "disabled"',
        '[analytics]',
        'enabled = false',
        '[otel]',
        'exporter = "none"',
        '[model_providers.gateway]',
        'name = "Gateway"',
        `base_url = "${bed.app.baseUrl}/v1"`,
        'env_key = "GATEWAY_API_KEY"',
        'wire_api = "responses"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        // Responses' WebSocket mode: offered by the provider, and the feature that prefers it over HTTP.
        ...(transport === 'websocket' ? ['supports_websockets = true', '[features]', 'responses_websockets = true'] : []),
        '',
      ].join('\n'),
    );
    const bin = path.join(__dirname, '..', 'node_modules', '.bin', 'codex');
    const env = { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: codexHome, GATEWAY_API_KEY: bed.token.apiKey, NO_COLOR: '1', RUST_LOG: 'error' };
    const run = await runCli(bin, ['exec', '--skip-git-repo-check', '-C', workdir, 'Write the proof file, then say done.'], { env, timeoutMs: CODEX_TIMEOUT_MS });
    return { ...run, workdir };
  }

  it(
    'answers through a Chat-only channel, running the shell tool the model asked for',
    async () => {
      const run = await codexExec('gpt-chat', 'chat-only');
      const proof = path.join(run.workdir, 'proof.txt');
      if (run.code !== 0) throw new Error(failedRun('codex', run));
      expect(existsSync(proof) && readFileSync(proof, 'utf8').trim()).toBe(PROOF);
      expect(run.stdout).toContain(`Done: ${PROOF}`);
      const chats = chatOnly.requests.filter((request) => request.path.endsWith('/chat/completions'));
      expect(chats.length).toBeGreaterThanOrEqual(2);
      const toolMessage = (chats.at(-1)?.body.messages as Array<{ role: string; content: unknown }>).find((message) => message.role === 'tool');
      expect(String(toolMessage?.content)).toContain(PROOF);
      // Each call billed from the upstream's usage: 50 + 5 × 2.
      await bed.seed.flush();
      const logs = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).filter((log) => log.model_name === 'gpt-chat');
      expect(logs.length).toBe(chats.length);
      for (const log of logs) expect(log).toMatchObject({ quota: 60, prompt_tokens: 50, completion_tokens: 5 });
    },
    CODEX_TIMEOUT_MS + 10_000,
  );

  it(
    'answers through a Claude channel, the tool_use run by Codex and its result sent back',
    async () => {
      const run = await codexExec('claude-test', 'claude');
      if (run.code !== 0) throw new Error(failedRun('codex', run));
      expect(readFileSync(path.join(run.workdir, 'proof.txt'), 'utf8').trim()).toBe(PROOF);
      const calls = claude.requests.filter((request) => request.path.startsWith('/v1/messages'));
      expect(calls.length).toBeGreaterThanOrEqual(2);
      const last = calls.at(-1)?.body.messages as Array<{ role: string; content: unknown }>;
      expect(JSON.stringify(last)).toContain(PROOF);
      // Billed from Claude's usage: the tool_use answer 100 + 40 × 5, the mock's final answer 100 + 2000 × 0.1 + 500 × 1.25 + 40 × 5.
      await bed.seed.flush();
      const logs = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).filter((log) => log.model_name === 'claude-test');
      expect(logs.length).toBe(calls.length);
      expect(logs[0]).toMatchObject({ quota: 300, prompt_tokens: 100, completion_tokens: 40 });
      expect(logs.at(-1)).toMatchObject({ quota: 1125, prompt_tokens: 2600, completion_tokens: 40 });
    },
    CODEX_TIMEOUT_MS + 10_000,
  );

  it(
    'answers through a channel whose upstream serves Responses (passed through)',
    async () => {
      const run = await codexExec('gpt-resp', 'responses');
      if (run.code !== 0) throw new Error(failedRun('codex', run));
      expect(readFileSync(path.join(run.workdir, 'proof.txt'), 'utf8').trim()).toBe(PROOF);
      const calls = responsesUpstream.requests.filter((request) => request.path === '/v1/responses');
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(calls.at(-1)?.body.input)).toContain(PROOF);
      await bed.seed.flush();
      const logs = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).filter((log) => log.model_name === 'gpt-resp');
      expect(logs.length).toBe(calls.length);
      for (const log of logs) expect(log).toMatchObject({ quota: 60, prompt_tokens: 50, completion_tokens: 5 });
    },
    CODEX_TIMEOUT_MS + 10_000,
  );

  it(
    'answers through a Gemini channel, the functionCall run by Codex and its functionResponse sent back',
    async () => {
      const run = await codexExec('gemini-test', 'gemini');
      if (run.code !== 0) throw new Error(failedRun('codex', run));
      expect(readFileSync(path.join(run.workdir, 'proof.txt'), 'utf8').trim()).toBe(PROOF);
      const calls = gemini.requests.filter((request) => request.path.includes(':streamGenerateContent'));
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(calls.at(-1)?.body.contents)).toContain(PROOF);
      // The functionCall answer 30 + 10 × 2; the mock's final answer 10 + 20 × 1 (no cache price) + 15 × 2.
      await bed.seed.flush();
      const logs = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).filter((log) => log.model_name === 'gemini-test');
      expect(logs.length).toBe(calls.length);
      expect(logs[0]).toMatchObject({ quota: 50, prompt_tokens: 30, completion_tokens: 10 });
    },
    CODEX_TIMEOUT_MS + 10_000,
  );

  it(
    'speaks Responses over WebSocket (supports_websockets) through a Chat-only channel, each response billed',
    async () => {
      await bed.seed.flush();
      const before = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).length;
      const run = await codexExec('gpt-chat', 'chat-only-ws', 'websocket');
      if (run.code !== 0) throw new Error(failedRun('codex', run));
      expect(readFileSync(path.join(run.workdir, 'proof.txt'), 'utf8').trim()).toBe(PROOF);
      const chats = chatOnly.requests.filter((request) => request.path.endsWith('/chat/completions'));
      expect(chats.length).toBeGreaterThanOrEqual(2);
      // Codex sent only the tool's output after previous_response_id: the gateway put the conversation back in front.
      const lastMessages = chats.at(-1)?.body.messages as Array<{ role: string; content: unknown }>;
      expect(lastMessages.find((message) => message.role === 'tool')?.content).toEqual(expect.stringContaining(PROOF));
      expect(lastMessages.some((message) => message.role === 'user')).toBe(true);
      await bed.seed.flush();
      const logs = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).slice(before);
      expect(logs.length).toBe(chats.length);
      for (const log of logs) expect(log).toMatchObject({ model_name: 'gpt-chat', quota: 60, prompt_tokens: 50, completion_tokens: 5, other: expect.objectContaining({ ws: true }) });
    },
    CODEX_TIMEOUT_MS + 10_000,
  );

  it(
    'speaks Responses over WebSocket to an upstream that serves it over WebSocket too, bridged socket to socket',
    async () => {
      const socketUpstream = await new MockSocketUpstream().start();
      socketUpstream.respond = (frame) => {
        const reply = responsesToolLoop(shellCall, `Done: ${PROOF}`)({ method: 'POST', path: '/v1/responses', headers: {}, body: frame, raw: Buffer.alloc(0) });
        return reply && 'sse' in reply ? reply.sse.map((event) => JSON.parse(event) as object) : undefined;
      };
      try {
        await bed.seed.createChannel({ name: 'responses-ws', type: 1, base_url: socketUpstream.url, models: 'gpt-resp-ws' });
        await bed.seed.flush();
        const before = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).length;
        const run = await codexExec('gpt-resp-ws', 'responses-ws', 'websocket');
        if (run.code !== 0) throw new Error(failedRun('codex', run));
        expect(readFileSync(path.join(run.workdir, 'proof.txt'), 'utf8').trim()).toBe(PROOF);
        const creates = socketUpstream.frames.filter((frame) => frame.type === 'response.create');
        expect(creates.length).toBeGreaterThanOrEqual(2);
        expect(socketUpstream.upgrades.filter((upgrade) => upgrade.path === '/v1/responses')).toHaveLength(1);
        expect(JSON.stringify(creates.at(-1)?.input)).toContain(PROOF);
        await bed.seed.flush();
        const logs = (await bed.seed.consumeLogs({ tokenId: bed.token.id })).slice(before);
        expect(logs.length).toBe(creates.length);
        for (const log of logs) expect(log).toMatchObject({ model_name: 'gpt-resp-ws', quota: 60, prompt_tokens: 50, completion_tokens: 5, other: expect.objectContaining({ ws: true }) });
      } finally {
        await socketUpstream.stop();
      }
    },
    CODEX_TIMEOUT_MS + 10_000,
  );
});
