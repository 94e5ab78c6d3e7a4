import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import OpenAI, { APIError } from 'openai';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { MOCK_REPLY_TEXT, MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { parsePrometheusText, sampleValue, type Exposition } from './support/prometheus-text';
import { startTestApp, TestApp } from './support/test-app';

const METRICS_TOKEN = 'scrape-token-5f1c2e';
const MODEL = 'metered-model';
const UPSTREAM_KEYS = ['sk-first-upstream-key-aaaa', 'sk-second-upstream-key-bbbb'];
/** The labels each series may carry: nothing that names a user, a token or a key. */
const ALLOWED_LABELS = new Set(['inbound', 'model', 'channel_id', 'status_class', 'status', 'kind', 'scope', 'le', 'space', 'version', 'major', 'minor', 'patch', 'type']);

function scrape(app: TestApp, authorization?: string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${app.baseUrl}/metrics`, { headers: authorization ? { authorization } : {} }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type']), body }));
    });
    request.on('error', reject);
  });
}

async function metrics(app: TestApp): Promise<Exposition> {
  const answer = await scrape(app, `Bearer ${METRICS_TOKEN}`);
  expect(answer.status).toBe(200);
  expect(answer.contentType).toContain('text/plain');
  return parsePrometheusText(answer.body);
}

describe('Prometheus metrics (METRICS_ENABLED, METRICS_TOKEN)', () => {
  let app: TestApp;
  let first: MockUpstream;
  let second: MockUpstream;
  let seed: RelaySeed;
  let root: Session;
  let alice: Session;
  let apiKey: string;
  let tokenId: number;
  let client: OpenAI;
  let firstChannel: number;
  let secondChannel: number;

  beforeAll(async () => {
    first = await new MockUpstream().start();
    second = await new MockUpstream().start();
    app = await startTestApp({ METRICS_ENABLED: 'true', METRICS_TOKEN });
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    alice = await registerUser(app, 'alicemetric');
    await seed.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    await seed.setOption('RetryTimes', 2);
    await seed.setUserQuota(alice.id, 100_000_000);
    const token = await seed.createToken(alice.id, { unlimited_quota: true });
    apiKey = token.apiKey;
    tokenId = token.id;
    client = openaiClient(app, apiKey);
    firstChannel = await seed.createChannel({ name: 'first', base_url: first.url, models: `${MODEL},unpriced-model-zz`, priority: 10, key: UPSTREAM_KEYS[0] });
    secondChannel = await seed.createChannel({ name: 'second', base_url: second.url, models: MODEL, priority: 0, key: UPSTREAM_KEYS[1] });
  });
  afterAll(async () => {
    await app.stop();
    await first.stop();
    await second.stop();
  });

  it('requires the Bearer token when METRICS_TOKEN is set, and never the session', async () => {
    expect((await scrape(app)).status).toBe(401);
    expect((await scrape(app, 'Bearer wrong-token')).status).toBe(401);
    // A signed-in administrator's cookie is no substitute for the token.
    const withCookie = await new Promise<number>((resolve, reject) => {
      http.get(`${app.baseUrl}/metrics`, { headers: { cookie: root.cookie, 'new-api-user': String(root.id) } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(withCookie).toBe(401);
    expect((await scrape(app, `Bearer ${METRICS_TOKEN}`)).status).toBe(200);
  });

  it('counts a success, a failover from an upstream 500, a stream and refused calls exactly', async () => {
    const ask = () => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    // 1. a success on the first channel
    expect((await ask()).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    // 2. the first channel answers 500 once: failover to the second
    let failures = 1;
    first.handler = () => (failures-- > 0 ? { status: 500, json: { error: { message: 'upstream broke' } } } : undefined);
    expect((await ask()).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect(second.requests).toHaveLength(1);
    // 3. a stream, with its usage
    const stream = await client.chat.completions.create({ model: MODEL, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe(MOCK_REPLY_TEXT);
    // 4. refused: an unknown key (401), then the model request limit (429) on the fourth request of the window
    const refused = await openaiClient(app, 'sk-not-a-token-000000000000000000000000').chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }).catch((error: APIError) => error);
    expect((refused as APIError).status).toBe(401);
    await seed.setOption('ModelRequestRateLimitDurationMinutes', 1);
    await seed.setOption('ModelRequestRateLimitCount', 0);
    await seed.setOption('ModelRequestRateLimitSuccessCount', 1);
    await seed.setOption('ModelRequestRateLimitEnabled', true);
    expect((await ask()).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    const limited = await ask().catch((error: APIError) => error);
    expect((limited as APIError).status).toBe(429);
    await seed.setOption('ModelRequestRateLimitEnabled', false);
    await seed.flush();

    const exposition = await metrics(app);
    const served = { inbound: 'openai', model: MODEL, status_class: '2xx' };
    expect(exposition.types.get('gateway_requests_total')).toBe('counter');
    expect(sampleValue(exposition, 'gateway_requests_total', { ...served, channel_id: String(firstChannel) })).toBe(3);
    expect(sampleValue(exposition, 'gateway_requests_total', { ...served, channel_id: String(secondChannel) })).toBe(1);
    // The unknown key is refused before the gateway reads a model; the rate limit after, so under the model. Neither reached a channel.
    expect(sampleValue(exposition, 'gateway_requests_total', { inbound: 'openai', model: 'none', channel_id: 'none', status_class: '4xx' })).toBe(1);
    expect(sampleValue(exposition, 'gateway_requests_total', { inbound: 'openai', model: MODEL, channel_id: 'none', status_class: '4xx' })).toBe(1);
    expect(exposition.samples.filter((sample) => sample.name === 'gateway_requests_total').reduce((sum, sample) => sum + sample.value, 0)).toBe(6);

    expect(sampleValue(exposition, 'gateway_upstream_errors_total', { channel_id: String(firstChannel), status: '500' })).toBe(1);
    expect(exposition.samples.filter((sample) => sample.name === 'gateway_upstream_errors_total')).toHaveLength(1);
    expect(sampleValue(exposition, 'gateway_retries_total')).toBe(1);
    expect(sampleValue(exposition, 'gateway_rate_limited_total', { scope: 'model' })).toBe(1);

    expect(exposition.types.get('gateway_request_duration_seconds')).toBe('histogram');
    expect(sampleValue(exposition, 'gateway_request_duration_seconds_count', { inbound: 'openai', model: MODEL })).toBe(5);
    expect(sampleValue(exposition, 'gateway_request_duration_seconds_bucket', { inbound: 'openai', model: MODEL, le: '+Inf' })).toBe(5);
    expect(sampleValue(exposition, 'gateway_request_duration_seconds_count', { inbound: 'openai', model: 'none' })).toBe(1);
    expect(sampleValue(exposition, 'gateway_request_duration_seconds_sum', { inbound: 'openai', model: MODEL })).toBeGreaterThan(0);
    const buckets = exposition.samples.filter((sample) => sample.name === 'gateway_request_duration_seconds_bucket' && sample.labels.model === MODEL).map((sample) => sample.value);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(sampleValue(exposition, 'gateway_time_to_first_token_seconds_count', { inbound: 'openai', model: MODEL })).toBe(1);

    // Every answer reported 12 prompt and 7 completion tokens; at ratio 1 each cost 19.
    expect(sampleValue(exposition, 'gateway_tokens_total', { model: MODEL, kind: 'prompt' })).toBe(48);
    expect(sampleValue(exposition, 'gateway_tokens_total', { model: MODEL, kind: 'completion' })).toBe(28);
    expect(sampleValue(exposition, 'gateway_tokens_total', { model: MODEL, kind: 'cache_read' })).toBe(0);
    expect(sampleValue(exposition, 'gateway_tokens_total', { model: MODEL, kind: 'cache_write' })).toBe(0);
    expect(sampleValue(exposition, 'gateway_quota_consumed_total', { model: MODEL })).toBe(76);

    expect(sampleValue(exposition, 'gateway_active_streams')).toBe(0);
    expect(sampleValue(exposition, 'gateway_channel_enabled', { channel_id: String(firstChannel) })).toBe(1);
    expect(sampleValue(exposition, 'gateway_channel_enabled', { channel_id: String(secondChannel) })).toBe(1);
    expect(sampleValue(exposition, 'gateway_settlement_queue_depth')).toBe(0);
    expect(sampleValue(exposition, 'gateway_log_batch_lag_seconds')).toBe(0);
    // The process defaults.
    for (const name of ['process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_resident_memory_bytes']) {
      expect(sampleValue(exposition, name)).toEqual(expect.any(Number));
    }
    expect(exposition.types.get('nodejs_gc_duration_seconds')).toBe('histogram');

    // The Grafana dashboard plots only series the gateway serves.
    const dashboard = JSON.parse(readFileSync(path.join(__dirname, '..', 'deploy', 'grafana', 'ai-gateway-dashboard.json'), 'utf8')) as { panels: Array<{ targets: Array<{ expr: string }> }> };
    const plotted = new Set(dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => target.expr.match(/\b(?:gateway|nodejs|process)_[a-z0-9_]+/g) ?? [])));
    expect([...plotted].filter((name) => name.startsWith('gateway_')).length).toBeGreaterThanOrEqual(11);
    // A family is declared even before it has samples (no GC has run yet): look its name up without the histogram suffixes.
    for (const name of plotted) expect([name, exposition.types.has(name.replace(/_(bucket|sum|count)$/, ''))]).toEqual([name, true]);
  });

  it('folds models outside the price maps into "other" and carries no user, token or key in any label', async () => {
    await seed.setOption('SelfUseModeEnabled', true);
    await client.chat.completions.create({ model: 'unpriced-model-zz', messages: [{ role: 'user', content: 'hi' }] });
    await seed.setOption('SelfUseModeEnabled', false);
    await seed.flush();
    const answer = await scrape(app, `Bearer ${METRICS_TOKEN}`);
    const exposition = parsePrometheusText(answer.body);
    expect(sampleValue(exposition, 'gateway_requests_total', { model: 'other', channel_id: String(firstChannel), status_class: '2xx' })).toBe(1);
    expect(sampleValue(exposition, 'gateway_tokens_total', { model: 'other', kind: 'prompt' })).toBe(12);
    expect(answer.body).not.toContain('unpriced-model-zz');

    const forbidden = [apiKey, apiKey.slice(3), ...UPSTREAM_KEYS, METRICS_TOKEN, alice.username, root.username, 'test-session-secret'];
    for (const secret of forbidden) expect(answer.body).not.toContain(secret);
    const userOrTokenIds = new Set([String(alice.id), String(root.id), String(tokenId)]);
    for (const sample of exposition.samples) {
      for (const [name, value] of Object.entries(sample.labels)) {
        expect(ALLOWED_LABELS).toContain(name);
        // The gateway's ids in labels are channels' only (the process defaults carry Node's version numbers).
        if (sample.name.startsWith('gateway_') && !['channel_id', 'le', 'status'].includes(name) && userOrTokenIds.has(value)) throw new Error(`${sample.name} carries ${name}="${value}"`);
      }
    }
  });
});

describe('metrics off (the default)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('serves no /metrics', async () => {
    const answer = await scrape(app);
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain('gateway_requests_total');
  });
});
