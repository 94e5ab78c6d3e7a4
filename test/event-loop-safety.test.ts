import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chatStreamEvents, MockUpstream } from './support/mock-upstream';
import { scratchDatabase } from './support/test-app';
import { call, prepareRelay, startGateway } from './support/child-gateway';

/** A 1 MB prompt: long runs without spaces (BPE's worst case) and ordinary words. */
function bigPrompt(): string {
  let words = '';
  for (let index = 0; words.length < 500_000; index++) words += `word${(index * 7919) % 100_003} `;
  let runs = '';
  for (let index = 0; runs.length < 500_000; index++) runs += String.fromCharCode(97 + ((index * 31) % 26)).repeat(1 + (index % 4000));
  return runs.slice(0, 500_000) + words.slice(0, 500_000);
}

/** Streams the chat and hangs up after the first chunk: the upstream's usage never arrives, so the gateway counts. */
function chatAndHangUp(baseUrl: string, apiKey: string, prompt: string): Promise<number> {
  const body = JSON.stringify({ model: 'loop-model', stream: true, messages: [{ role: 'user', content: prompt }] });
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } }, (response) => {
      response.once('data', () => {
        request.destroy();
        resolve(response.statusCode ?? 0);
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('event-loop safety: counting a huge prompt never stalls other requests', () => {
  let upstream: MockUpstream;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let dataDir: string;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    // No usage in the stream: the gateway bills by its own count of the prompt.
    upstream.handler = () => ({ sse: chatStreamEvents('loop-model', 'one two three four five', null), delayMs: 20 });
    database = await scratchDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-loop-'));
  });
  afterAll(async () => {
    await upstream.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('never delays /api/status by more than 50 ms while a 1 MB prompt is relayed and counted', async () => {
    // Its own process, as in production: the latency measured is the gateway's, not the test runner's.
    const gateway = await startGateway({ ...database.env, DATA_DIR: dataDir, SESSION_SECRET: 'loop-secret', WEB_DIST_DIR: path.join(dataDir, 'no-web') });
    try {
      const { baseUrl } = gateway;
      const { root, apiKey } = await prepareRelay(baseUrl, upstream.url, 'loop-model');
      const agent = new http.Agent({ keepAlive: true });
      const statusLatency = () =>
        new Promise<number>((resolve, reject) => {
          const startedAt = performance.now();
          http.get(`${baseUrl}/api/status`, { agent }, (response) => {
            response.resume();
            response.on('end', () => resolve(performance.now() - startedAt));
          }).on('error', reject);
        });
      for (let warm = 0; warm < 10; warm++) await statusLatency();
      let running = false;
      /** Status latencies, one call after another, until `running` turns false. */
      const probe = async (into: number[]) => {
        while (running) {
          into.push(await statusLatency());
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
      const consumeLogs = async () => ((await call(baseUrl, 'GET', '/api/log/self?type=2', undefined, root)).data as { items: Array<{ prompt_tokens: number }> }).items;

      /** The worst status latency while one request is relayed, hung up on, counted and settled. */
      const worstWhileBusy = async (prompt: string): Promise<{ worst: number; calls: number; millis: number; promptTokens: number }> => {
        const latencies: number[] = [];
        const startedAt = performance.now();
        const logsBefore = (await consumeLogs()).length;
        running = true;
        const busyProbe = probe(latencies);
        expect(await chatAndHangUp(baseUrl, apiKey, prompt)).toBe(200);
        // The charge is written once the gateway has seen the hang-up and counted the prompt off its event loop.
        let logs = await consumeLogs();
        for (const deadline = Date.now() + 60_000; logs.length === logsBefore && Date.now() < deadline; ) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          logs = await consumeLogs();
        }
        running = false;
        await busyProbe;
        expect(logs).toHaveLength(logsBefore + 1);
        return { worst: Math.max(...latencies), calls: latencies.length, millis: performance.now() - startedAt, promptTokens: logs[0].prompt_tokens };
      };

      // The counter loads its encoding (~70 MB) on first use, once per process: not what this measures.
      await worstWhileBusy('warm up');
      // Two runs: a stall caused by the request shows in both, while a shared runner's passing
      // hiccup rarely hits both. Then the machine's own noise, over as long a quiet time.
      const prompt = bigPrompt();
      const runs = [await worstWhileBusy(prompt), await worstWhileBusy(prompt)];
      const quiet: number[] = [];
      running = true;
      const quietProbe = probe(quiet);
      await new Promise((resolve) => setTimeout(resolve, Math.max(3000, ...runs.map((run) => run.millis))));
      running = false;
      await quietProbe;
      agent.destroy();

      for (const run of runs) {
        expect(run.promptTokens).toBeGreaterThan(100_000);
        expect(run.calls).toBeGreaterThan(5);
      }
      // Before the fix the BPE count of this prompt held the event loop for minutes.
      expect(Math.min(...runs.map((run) => run.worst))).toBeLessThan(50 + Math.max(...quiet));
    } finally {
      gateway.child.kill('SIGKILL');
    }
    // Three relays of a 1 MB prompt, each counted off the event loop: minutes on a loaded 2-core runner.
  }, 180_000);
});
