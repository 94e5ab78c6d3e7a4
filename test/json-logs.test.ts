import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { call, prepareRelay, startGateway } from './support/child-gateway';
import { chatStreamEvents, MOCK_USAGE, MockUpstream } from './support/mock-upstream';
import { scratchDatabase } from './support/test-app';

const MODEL = 'log-model';
const SECRETS = {
  session: 'log-session-secret-5a6b7c8d',
  crypto: 'log-crypto-secret-1e2f3a4b',
  metrics: 'log-metrics-token-99aa88bb',
  smtp: 'smtp-password-value-4242',
  brokenChannelKey: 'sk-broken-channel-key-9f9f9f',
};

interface LogLine {
  level: string;
  time: string;
  msg?: string;
  context?: string;
  request_id?: string;
}

function parseLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });
}

describe('LOG_FORMAT=json', () => {
  let first: MockUpstream;
  let broken: MockUpstream;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let dataDir: string;

  beforeAll(async () => {
    first = await new MockUpstream().start();
    broken = await new MockUpstream().start();
    // An upstream that quotes the key back in its error, as OpenAI's "Incorrect API key provided" does.
    broken.handler = (request) => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${String(request.headers.authorization).replace('Bearer ', '')}`, type: 'invalid_request_error' } } });
    database = await scratchDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-json-logs-'));
  });
  afterAll(async () => {
    await first.stop();
    await broken.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes one JSON object per line; every line of a relay or console call carries its request id; no secret reaches the log', async () => {
    const gateway = await startGateway({
      ...database.env,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      SESSION_SECRET: SECRETS.session,
      CRYPTO_SECRET: SECRETS.crypto,
      METRICS_ENABLED: 'true',
      METRICS_TOKEN: SECRETS.metrics,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
    });
    const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', (code) => resolve(code)));
    const known: string[] = Object.values(SECRETS);
    try {
      const { baseUrl } = gateway;
      const { root, apiKey } = await prepareRelay(baseUrl, first.url, MODEL);
      known.push(apiKey, apiKey.slice(3), 'root-pass-1', root.cookie.split('=')[1], `sk-${MODEL}`);
      await call(baseUrl, 'PUT', '/api/option/', { key: 'SMTPToken', value: SECRETS.smtp }, root);
      await call(baseUrl, 'PUT', '/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' }, root);
      await call(baseUrl, 'PUT', '/api/option/', { key: 'RetryTimes', value: '1' }, root);
      await call(baseUrl, 'POST', '/api/channel/', { name: 'broken', type: 1, key: SECRETS.brokenChannelKey, base_url: broken.url, models: MODEL, priority: 10 }, root);
      const status = await fetch(`${baseUrl}/api/status`);
      expect(status.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

      const relayCalls: Array<() => Promise<Response>> = [
        // The broken channel answers 401 quoting its key: it is disabled (a warning line) and the call fails over.
        () => fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }) }),
        () => {
          first.handler = () => ({ sse: chatStreamEvents(MODEL, 'streamed answer', MOCK_USAGE) });
          return fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] }) });
        },
        () => fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-not-a-token-0000000000000000', 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, messages: [] }) }),
      ];
      for (const relayCall of relayCalls) {
        const before = gateway.output().length;
        const response = await relayCall();
        await response.text();
        const requestId = response.headers.get('x-request-id');
        expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
        // Lines written off the answer's path (disabling the channel) come just after it.
        await new Promise((resolve) => setTimeout(resolve, 400));
        const lines = parseLines(gateway.output().slice(before));
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) expect(line).toMatchObject({ request_id: requestId });
      }
      // A console call whose work logs (a mail server that refuses): its line carries the id its answer's X-Request-Id names.
      for (const [key, value] of [['SMTPServer', '127.0.0.1'], ['SMTPPort', '1'], ['SMTPFrom', 'gateway@example.com'], ['SMTPAccount', 'gateway@example.com']]) {
        await call(baseUrl, 'PUT', '/api/option/', { key, value }, root);
      }
      const before = gateway.output().length;
      const mailed = await fetch(`${baseUrl}/api/verification?email=someone@example.com`);
      expect(((await mailed.json()) as { success: boolean }).success).toBe(false);
      const apiLines = parseLines(gateway.output().slice(before));
      expect(apiLines.some((line) => line.context === 'MailService')).toBe(true);
      for (const line of apiLines) expect(line).toMatchObject({ request_id: mailed.headers.get('x-request-id') });

      const lines = parseLines(gateway.output());
      expect(lines.some((line) => line.context === 'ChannelNoticesService' && line.level === 'warn' && line.msg?.includes('Incorrect API key provided'))).toBe(true);
      expect(lines.some((line) => line.context === 'RelayDispatchStage' && line.msg?.includes('failed: 502 channel:unauthorized'))).toBe(true);
      expect(lines.filter((line) => line.context === 'RelayService' && line.level === 'debug')).toHaveLength(3);
      gateway.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      gateway.child.kill('SIGKILL');
    }
    const whole = gateway.output();
    const lines = parseLines(whole);
    expect(lines.every((line) => typeof line.level === 'string' && typeof line.time === 'string')).toBe(true);
    expect(lines.some((line) => line.msg === 'shut down cleanly')).toBe(true);
    for (const secret of known) expect(whole).not.toContain(secret);
  });
});
