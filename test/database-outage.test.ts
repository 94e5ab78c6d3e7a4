import { ConsoleLogger } from '@nestjs/common';
import OpenAI, { APIError } from 'openai';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { MOCK_REPLY_TEXT, MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';
import { eventually } from './support/until';
import { SettlementBatcherService } from '../src/modules/billing/settlement-batcher.service';

/**
 * The gateway talks to MariaDB or PostgreSQL through a TCP proxy the test cuts and restores
 * (SQLite is a file: it cannot go away like this, so the file runs on the servers only).
 */
const serverUrl = process.env.TEST_PG_URL ?? process.env.TEST_MYSQL_URL;
const describeOnServer = serverUrl ? describe : describe.skip;

const chat = (client: OpenAI) => client.chat.completions.create({ model: 'outage-model', messages: [{ role: 'user', content: 'hi' }] });

describeOnServer('database outage (the database server behind a cuttable proxy)', () => {
  let proxy: TcpProxy;
  let upstream: MockUpstream;
  let app: TestApp;
  let seed: RelaySeed;
  let alice: Session;
  let client: OpenAI;
  let tokenId: number;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const logged: string[] = [];

  beforeAll(async () => {
    const server = new URL(serverUrl!);
    proxy = await new TcpProxy(server.hostname, Number(server.port || (server.protocol === 'mysql:' ? 3306 : 5432))).start();
    upstream = await new MockUpstream().start();
    app = await startTestApp({}, { databasePort: proxy.port });
    seed = new RelaySeed(app);
    await setupRoot(app);
    alice = await registerUser(app, 'alice');
    await seed.setOption('ModelRatio', JSON.stringify({ 'outage-model': 1 }));
    await seed.setUserQuota(alice.id, 10_000_000);
    const token = await seed.createToken(alice.id, { remain_quota: 1_000_000 });
    tokenId = token.id;
    client = openaiClient(app, token.apiKey);
    await seed.createChannel({ base_url: upstream.url, models: 'outage-model' });
    process.on('unhandledRejection', onUnhandled);
    for (const level of ['error', 'warn'] as const) {
      jest.spyOn(ConsoleLogger.prototype, level).mockImplementation((...parts: unknown[]) => void logged.push(parts.map(String).join(' ')));
    }
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    process.off('unhandledRejection', onUnhandled);
    proxy.restore();
    await app.stop();
    await upstream.stop();
    await proxy.stop();
  });
  afterEach(() => {
    proxy.restore();
    upstream.reset();
  });

  it('answers 503 with a clear message on the relay and the console while the database is down, and recovers without a restart', async () => {
    expect((await chat(client)).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    const unknownTokenClient = openaiClient(app, 'sk-not-in-any-cache-000000000000000000000000');
    upstream.reset();
    proxy.cutOff();

    for (const caller of [client, unknownTokenClient]) {
      const failure = await chat(caller).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(APIError);
      expect((failure as APIError).status).toBe(503);
      expect((failure as APIError).message).toMatch(/cannot reach its database/);
    }
    for (const path of ['/api/user/self', '/api/log/self']) {
      const answer = await alice.get(path).set('Accept-Language', 'en');
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ success: false, message: 'The database cannot be reached right now, please retry shortly', data: null });
    }
    expect(upstream.requests).toHaveLength(0);
    expect(logged.filter((line) => /\n\s+at /.test(line))).toEqual([]);

    proxy.restore();
    await eventually(async () => (await alice.get('/api/user/self')).status === 200);
    expect((await chat(client)).choices[0].message.content).toBe(MOCK_REPLY_TEXT);
    expect((await alice.get('/api/log/self')).body.success).toBe(true);
    expect(unhandled).toEqual([]);
  });

  it('keeps a settlement that could not be written during the outage and writes it, exactly once, when the database returns', async () => {
    await seed.flush();
    const userBefore = await seed.userQuota(alice.id);
    const tokenBefore = await seed.tokenQuota(tokenId);
    const logsBefore = (await seed.consumeLogs({ userId: alice.id })).length;
    upstream.handler = async () => {
      // The hold is taken; the database goes away while the upstream answers.
      proxy.cutOff();
      return undefined;
    };
    const answer = await chat(client);
    expect(answer.choices[0].message.content).toBe(MOCK_REPLY_TEXT);

    const batcher = app.app.get(SettlementBatcherService);
    expect(await batcher.flush()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await batcher.flush()).toBe(false);

    proxy.restore();
    await eventually(() => batcher.flush());
    const logs = await seed.consumeLogs({ userId: alice.id });
    expect(logs).toHaveLength(logsBefore + 1);
    const charged = logs[logs.length - 1].quota;
    expect(charged).toBeGreaterThan(0);
    const userAfter = await seed.userQuota(alice.id);
    expect(userBefore.quota - userAfter.quota).toBe(charged);
    expect(userAfter.request_count - userBefore.request_count).toBe(1);
    expect(tokenBefore.remain_quota - (await seed.tokenQuota(tokenId)).remain_quota).toBe(charged);
    expect(unhandled).toEqual([]);
    expect(logged.filter((line) => /\n\s+at /.test(line))).toEqual([]);
  });
});
