import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chatStreamEvents, MOCK_REPLY_TEXT, MOCK_USAGE, MockUpstream } from './support/mock-upstream';
import { dataSourceFor, scratchDatabase, testSql } from './support/test-app';
import { call, prepareRelay, startGateway } from './support/child-gateway';

/** A streamed chat through raw HTTP; resolves `started` at the first byte and `done` with the whole body. */
function streamChat(baseUrl: string, apiKey: string): { started: Promise<void>; done: Promise<string> } {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const done = new Promise<string>((resolve, reject) => {
    const request = http.request(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        markStarted();
      });
      response.on('end', () => resolve(text));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(JSON.stringify({ model: 'slow-model', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }));
  });
  return { started, done };
}

function connectionRefused(baseUrl: string): Promise<boolean> {
  return fetch(`${baseUrl}/api/status`).then(
    () => false,
    (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
  );
}

describe('graceful shutdown on SIGTERM', () => {
  let upstream: MockUpstream;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let dataDir: string;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    // Slow streams: about 1.5 s each, so they are still running when the signal comes.
    upstream.handler = (request) => (request.body.stream ? { sse: chatStreamEvents('slow-model', MOCK_REPLY_TEXT, MOCK_USAGE), delayMs: 150 } : undefined);
    database = await scratchDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-shutdown-'));
  });
  afterAll(async () => {
    await upstream.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops accepting, finishes the streams in flight, writes their settlements and logs, and exits 0', async () => {
    const gateway = await startGateway({ ...database.env, DATA_DIR: dataDir, SESSION_SECRET: 'shutdown-secret', SHUTDOWN_GRACE_SECONDS: '20', WEB_DIST_DIR: path.join(dataDir, 'no-web') });
    const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', (code) => resolve(code)));
    try {
      const { baseUrl } = gateway;
      const { root, apiKey } = await prepareRelay(baseUrl, upstream.url, 'slow-model');
      const quotaBefore = ((await call(baseUrl, 'GET', '/api/user/self', undefined, root)).data as { quota: number }).quota;

      const streams = [1, 2, 3].map(() => streamChat(baseUrl, apiKey));
      await Promise.all(streams.map((stream) => stream.started));
      gateway.child.kill('SIGTERM');

      // New connections are refused at once, while the three streams run to their end.
      let refused = false;
      for (let attempt = 0; attempt < 20 && !refused; attempt++) {
        refused = await connectionRefused(baseUrl);
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(refused).toBe(true);
      const bodies = await Promise.all(streams.map((stream) => stream.done));
      for (const body of bodies) {
        expect(body).toContain('[DONE]');
        expect(body).toContain('"usage"');
      }
      expect(await exited).toBe(0);
      expect(upstream.streamsAborted).toBe(0);

      // Read what the stopped gateway left in its database.
      const dataSource = dataSourceFor(database.env);
      await dataSource.initialize();
      try {
        const logs: Array<{ quota: number }> = await dataSource.query("SELECT quota FROM logs WHERE type = 2 AND model_name = 'slow-model'");
        expect(logs).toHaveLength(3);
        const charged = logs.reduce((sum, log) => sum + Number(log.quota), 0);
        expect(charged).toBeGreaterThan(0);
        const [user] = await dataSource.query(testSql('SELECT quota, request_count FROM users WHERE id = ?'), [root.id]);
        expect(Number(user.quota)).toBe(quotaBefore - charged);
        expect(Number(user.request_count)).toBe(3);
      } finally {
        await dataSource.destroy();
      }
    } finally {
      if (gateway.child.exitCode === null) gateway.child.kill('SIGKILL');
    }
  });
});
