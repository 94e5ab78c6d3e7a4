import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { call, prepareRelay, startGateway } from './support/child-gateway';
import { chatStreamEvents, MOCK_REPLY_TEXT, MOCK_USAGE, MockUpstream } from './support/mock-upstream';
import { attributesOf, OtlpReceiver, type OtlpSpan } from './support/otlp-receiver';
import { scratchDatabase } from './support/test-app';
import { eventually } from './support/until';

const MODEL = 'traced-model';
const PROMPT = 'a prompt that must never reach a span 7c41';
/** Two words: the mock streams one chunk per word. */
const STREAMED_ANSWER = 'streamed-answer-2b9e stays-out-of-spans-8d1f';
const FAILING_CHANNEL_KEY = 'sk-failing-channel-key-5d5d5d';
const SESSION_SECRET = 'otel-session-secret-3c3c3c';
const INCOMING_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const INCOMING_PARENT_ID = '00f067aa0ba902b7';
const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const STATUS_ERROR = 2;
const PROBE = path.join(__dirname, 'support', 'loaded-modules-probe.js');

/** A child gateway on a scratch database, its loaded modules written to a file when it exits. */
async function startProbedGateway(dataDir: string, databaseEnv: Record<string, string>, env: Record<string, string>) {
  const loadedModulesFile = path.join(dataDir, 'loaded-modules.json');
  const gateway = await startGateway({
    ...databaseEnv,
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    SESSION_SECRET,
    NODE_OPTIONS: `--require ${PROBE}`,
    LOADED_MODULES_FILE: loadedModulesFile,
    ...env,
  });
  const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', (code) => resolve(code)));
  return {
    ...gateway,
    /** SIGTERM, a clean exit, and the modules the process had loaded. */
    async stop(): Promise<string[]> {
      gateway.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      return JSON.parse(readFileSync(loadedModulesFile, 'utf8')) as string[];
    },
  };
}

function chat(baseUrl: string, apiKey: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: PROMPT }], ...body }) });
}

const attributes = (span: OtlpSpan) => attributesOf(span.attributes);
const nanos = (time: string) => BigInt(time);
const CLOCK_SLACK = 2_000_000n;
const OPENTELEMETRY_MODULE = /[\\/]@opentelemetry[\\/]/;
const OPENTELEMETRY_API = /[\\/]@opentelemetry[\\/]api[\\/]/;
/** The gateway's only file that imports the SDK. */
const TRACER_FILE = path.join('src', 'modules', 'tracing', 'otel-relay-tracer.ts');

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let receiver: OtlpReceiver;
  let failing: MockUpstream;
  let healthy: MockUpstream;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let dataDir: string;

  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
    failing = await new MockUpstream().start();
    healthy = await new MockUpstream().start();
    database = await scratchDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-otel-'));
  });
  afterAll(async () => {
    await receiver.stop();
    await failing.stop();
    await healthy.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exports a request span (child of the incoming traceparent) with a span per upstream attempt, GenAI attributes and usage; the upstream gets the attempt as its parent; no prompt, answer or key is exported', async () => {
    const gateway = await startProbedGateway(dataDir, database.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'gateway-under-test',
      // Export within a tenth of a second rather than five.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    let loadedModules: string[];
    const secrets = [SESSION_SECRET, FAILING_CHANNEL_KEY, `sk-${MODEL}`, 'root-pass-1'];
    try {
      const { baseUrl } = gateway;
      const { root, apiKey } = await prepareRelay(baseUrl, healthy.url, MODEL);
      secrets.push(apiKey, apiKey.slice(3), root.cookie.split('=')[1]);
      const healthyChannel = ((await call(baseUrl, 'GET', '/api/channel/?p=0', undefined, root)).data as { items: Array<{ id: number }> }).items[0].id;
      await call(baseUrl, 'PUT', '/api/option/', { key: 'RetryTimes', value: '1' }, root);
      // Tried first (higher priority); answers 500 once.
      await call(baseUrl, 'POST', '/api/channel/', { name: 'failing', type: 1, key: FAILING_CHANNEL_KEY, base_url: failing.url, models: MODEL, priority: 10 }, root);
      const failingChannel = ((await call(baseUrl, 'GET', '/api/channel/?p=0', undefined, root)).data as { items: Array<{ id: number; name: string }> }).items.find((channel) => channel.name === 'failing')!.id;
      let failures = 1;
      failing.handler = () => (failures-- > 0 ? { status: 500, json: { error: { message: `upstream broke on: ${PROMPT}` } } } : undefined);

      // 1. A chat in a trace of the client's, failing over from the 500 to the healthy channel.
      const answer = await chat(baseUrl, apiKey, {}, { traceparent: `00-${INCOMING_TRACE_ID}-${INCOMING_PARENT_ID}-01`, tracestate: 'client=7' });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
      const chatRequestId = answer.headers.get('x-request-id');

      // 2. A stream (served by the failing channel, which answers now), paced so its span must wait for the last event.
      failing.handler = () => ({ sse: chatStreamEvents(MODEL, STREAMED_ANSWER, MOCK_USAGE), delayMs: 40 });
      const streamed = await chat(baseUrl, apiKey, { stream: true });
      expect(await streamed.text()).toContain('stays-out-of-spans-8d1f');
      const streamRequestId = streamed.headers.get('x-request-id');

      // 3. A refused call: an unknown key.
      const refused = await chat(baseUrl, 'sk-not-a-token-000000000000000000000000', {});
      expect(refused.status).toBe(401);
      const refusedRequestId = refused.headers.get('x-request-id');

      const requestSpan = (requestId: string | null) => receiver.spans().find((span) => attributes(span)['gateway.request_id'] === requestId && span.kind === SPAN_KIND_SERVER);
      await eventually(() => [chatRequestId, streamRequestId, refusedRequestId].every((id) => requestSpan(id) !== undefined));
      const spans = receiver.spans();

      // The chat: the request span continues the client's trace, under its span.
      const chatSpan = requestSpan(chatRequestId)!;
      expect(chatSpan.traceId).toBe(INCOMING_TRACE_ID);
      expect(chatSpan.parentSpanId).toBe(INCOMING_PARENT_ID);
      expect(chatSpan.name).toBe(`chat ${MODEL}`);
      expect(attributes(chatSpan)).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'openai',
        'gen_ai.request.model': MODEL,
        'gen_ai.response.model': MODEL,
        'gen_ai.usage.input_tokens': MOCK_USAGE.prompt_tokens,
        'gen_ai.usage.output_tokens': MOCK_USAGE.completion_tokens,
        'gateway.channel_id': healthyChannel,
        'gateway.attempts': 2,
        'gateway.stream': false,
        'gateway.inbound_format': 'openai',
        'http.request.method': 'POST',
        'url.path': '/v1/chat/completions',
        'http.response.status_code': 200,
      });
      const attempts = spans.filter((span) => span.parentSpanId === chatSpan.spanId).sort((a, b) => Number(attributes(a)['gateway.attempt']) - Number(attributes(b)['gateway.attempt']));
      expect(attempts).toHaveLength(2);
      for (const attempt of attempts) {
        expect(attempt.traceId).toBe(INCOMING_TRACE_ID);
        expect(attempt.kind).toBe(SPAN_KIND_CLIENT);
        expect(attempt.name).toBe(`chat ${MODEL}`);
        // Within the request's span, give or take the SDK's clock: each span anchors itself to Date.now(), whole milliseconds.
        expect(nanos(attempt.startTimeUnixNano) >= nanos(chatSpan.startTimeUnixNano) - CLOCK_SLACK && nanos(attempt.endTimeUnixNano) <= nanos(chatSpan.endTimeUnixNano) + CLOCK_SLACK).toBe(true);
      }
      expect(attributes(attempts[0])).toMatchObject({ 'gateway.attempt': 1, 'gateway.channel_id': failingChannel, 'gen_ai.system': 'openai', 'gen_ai.request.model': MODEL, 'http.response.status_code': 500, 'error.type': '500' });
      expect(attempts[0].status?.code).toBe(STATUS_ERROR);
      expect(attributes(attempts[1])).toMatchObject({ 'gateway.attempt': 2, 'gateway.channel_id': healthyChannel, 'gen_ai.response.model': MODEL, 'http.response.status_code': 200, 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 7 });
      expect(attributes(attempts[1])['error.type']).toBeUndefined();
      // Each upstream call carried its attempt's span as parent, in the client's trace, with the client's tracestate.
      expect(failing.requests[0].headers.traceparent).toBe(`00-${INCOMING_TRACE_ID}-${attempts[0].spanId}-01`);
      expect(healthy.requests.at(-1)!.headers.traceparent).toBe(`00-${INCOMING_TRACE_ID}-${attempts[1].spanId}-01`);
      expect(healthy.requests.at(-1)!.headers.tracestate).toBe('client=7');

      // The stream: a trace of its own, one attempt, usage from the stream's last chunk; the span ends with the stream.
      const streamSpan = requestSpan(streamRequestId)!;
      expect(streamSpan.parentSpanId ?? '').toBe('');
      expect(streamSpan.traceId).not.toBe(INCOMING_TRACE_ID);
      expect(attributes(streamSpan)).toMatchObject({ 'gateway.stream': true, 'gateway.channel_id': failingChannel, 'gateway.attempts': 1, 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 7, 'http.response.status_code': 200 });
      const streamAttempts = spans.filter((span) => span.parentSpanId === streamSpan.spanId);
      expect(streamAttempts).toHaveLength(1);
      expect(failing.requests.at(-1)!.headers.traceparent).toBe(`00-${streamSpan.traceId}-${streamAttempts[0].spanId}-01`);
      const events = chatStreamEvents(MODEL, STREAMED_ANSWER, MOCK_USAGE).length;
      // The mock waits 40 ms after each event: the spans last at least that long.
      expect(nanos(streamSpan.endTimeUnixNano) - nanos(streamSpan.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt((events - 1) * 40 * 1e6));
      expect(nanos(streamAttempts[0].endTimeUnixNano) - nanos(streamAttempts[0].startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt((events - 1) * 40 * 1e6));

      // The refused call: its status and error code, no attempt.
      const refusedSpan = requestSpan(refusedRequestId)!;
      expect(attributes(refusedSpan)).toMatchObject({ 'http.response.status_code': 401, 'error.type': expect.any(String) });
      expect(spans.filter((span) => span.parentSpanId === refusedSpan.spanId)).toHaveLength(0);

      // The console's calls: one span each, named by route.
      const apiSpan = spans.find((span) => attributes(span)['http.route'] === '/api/channel' && attributes(span)['http.request.method'] === 'POST');
      expect(apiSpan).toMatchObject({ kind: SPAN_KIND_SERVER, name: 'POST /api/channel' });
      expect(attributes(apiSpan!)['http.response.status_code']).toBe(200);
      expect(receiver.resourceAttributes()).toMatchObject({ 'service.name': 'gateway-under-test' });
      loadedModules = await gateway.stop();
    } finally {
      gateway.child.kill('SIGKILL');
    }
    expect(loadedModules.some((file) => file.endsWith(TRACER_FILE))).toBe(true);
    expect(loadedModules.some((file) => /[\\/]@opentelemetry[\\/]sdk-node[\\/]/.test(file))).toBe(true);
    const exported = receiver.bodies.join('\n');
    for (const text of [PROMPT, MOCK_REPLY_TEXT, ...STREAMED_ANSWER.split(' '), 'upstream broke', ...secrets]) expect([text, exported.includes(text)]).toEqual([text, false]);
  });

  it('loads no OpenTelemetry module when no endpoint is set', async () => {
    const offDir = mkdtempSync(path.join(tmpdir(), 'gw-otel-off-'));
    const offDatabase = await scratchDatabase();
    const gateway = await startProbedGateway(offDir, offDatabase.env, { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' });
    let loadedModules: string[];
    try {
      const { apiKey } = await prepareRelay(gateway.baseUrl, healthy.url, MODEL);
      const answer = await chat(gateway.baseUrl, apiKey, {}, { traceparent: `00-${INCOMING_TRACE_ID}-${INCOMING_PARENT_ID}-01` });
      expect(answer.status).toBe(200);
      // The client's traceparent is not forwarded either: the relay sends its own headers only.
      expect(healthy.requests.at(-1)!.headers.traceparent).toBeUndefined();
      loadedModules = await gateway.stop();
    } finally {
      gateway.child.kill('SIGKILL');
      await offDatabase.drop();
      rmSync(offDir, { recursive: true, force: true });
    }
    expect(loadedModules.length).toBeGreaterThan(100);
    expect(loadedModules.filter((file) => file.endsWith(TRACER_FILE))).toEqual([]);
    // prom-client requires @opentelemetry/api itself (its no-op stubs, for exemplars); nothing else of OpenTelemetry may load.
    expect(loadedModules.filter((file) => OPENTELEMETRY_MODULE.test(file) && !OPENTELEMETRY_API.test(file))).toEqual([]);
  });
});
