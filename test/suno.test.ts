import { DataSource } from 'typeorm';
import { getRepositoryToken } from '@nestjs/typeorm';
import { GenericTaskEntity } from '../src/modules/tasks/entities/generic-task.entity';
import { SunoPollerService } from '../src/modules/tasks/suno/suno-poller.service';
import { TaskBillingService } from '../src/modules/tasks/task-billing.service';
import { TaskRelaySupport } from '../src/modules/tasks/task-relay-support.service';
import type { SubscriptionView } from '../src/modules/plans/plan.wire';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { expectLedgerBalanced, ownSubscriptions } from './support/ledger-invariant';
import { RelaySeed } from './support/mock-upstream-seed';
import { MockSunoApi, SUNO_KEY } from './support/mock-task-upstreams';
import { startTestApp, TestApp, testSql } from './support/test-app';

const MUSIC_PRICE = 50_000; // $0.1 × 500000
const LYRICS_PRICE = 5_000;

describe('Suno relay: submit, poll, bill, refund', () => {
  let app: TestApp;
  let suno: MockSunoApi;
  let seed: RelaySeed;
  let root: Session;
  let alice: Session;
  let aliceToken: { id: number; apiKey: string };
  let bobKey: string;
  let rootKey: string;
  let poller: SunoPollerService;
  let channelId: number;

  const submit = (key: string, action: string, body: object) => app.http.post(`/suno/submit/${action}`).set('Authorization', `Bearer ${key}`).send(body);
  const fetchTask = (key: string, id: string) => app.http.get(`/suno/fetch/${id}`).set('Authorization', `Bearer ${key}`);
  const refundLogs = async (userId: number, taskId: string) =>
    (await app.app.get(DataSource).query(testSql('SELECT quota, content, other FROM logs WHERE type = 4 AND user_id = ? ORDER BY id'), [userId])).filter((row: { content: string }) => row.content.includes(taskId));

  beforeAll(async () => {
    suno = await new MockSunoApi().start();
    app = await startTestApp();
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    alice = await registerUser(app, 'alice');
    const bob = await registerUser(app, 'bob');
    await seed.setOption('TaskEnabled', true);
    await seed.setUserQuota(alice.id, 10_000_000);
    await seed.setUserQuota(bob.id, 1_000_000);
    aliceToken = await seed.createToken(alice.id, { remain_quota: 5_000_000 });
    bobKey = (await seed.createToken(bob.id)).apiKey;
    rootKey = (await seed.createToken(root.id, { unlimited_quota: true })).apiKey;
    await seed.setUserQuota(root.id, 1_000_000);
    poller = app.app.get(SunoPollerService);
  });
  afterAll(async () => {
    await app.stop();
    await suno.stop();
  });
  beforeEach(async () => {
    suno.reset();
    await app.app.get(DataSource).query("UPDATE tasks SET status = 'SUCCESS' WHERE status <> 'SUCCESS'");
    await seed.deleteAllChannels();
    channelId = await seed.createChannel({ type: 36, base_url: suno.baseUrl, key: SUNO_KEY, models: 'suno_music,suno_lyrics' });
  });

  it('submits music, polls it to success, and charges the music price once', async () => {
    await seed.flush();
    const userBefore = await seed.userQuota(alice.id);
    const tokenBefore = await seed.tokenQuota(aliceToken.id);
    const answer = await submit(aliceToken.apiKey, 'music', { prompt: 'a song about foxes', mv: 'chirp-v3-5', title: 'Foxes' });
    expect(answer.body).toMatchObject({ code: 'success' });
    const taskId = answer.body.data as string;
    expect(suno.requests[0]).toMatchObject({ path: '/suno/submit/music', body: { prompt: 'a song about foxes', mv: 'chirp-v3-5', title: 'Foxes' } });

    await seed.flush();
    expect((await seed.userQuota(alice.id)).quota).toBe(userBefore.quota - MUSIC_PRICE);
    expect((await seed.tokenQuota(aliceToken.id)).remain_quota).toBe(tokenBefore.remain_quota - MUSIC_PRICE);
    expect((await seed.consumeLogs({ userId: alice.id })).slice(-1)[0]).toMatchObject({ model_name: 'suno_music', quota: MUSIC_PRICE, channel_id: channelId });

    expect((await fetchTask(aliceToken.apiKey, taskId)).body.data).toMatchObject({ task_id: taskId, action: 'MUSIC', status: 'SUBMITTED', progress: '0%' });
    await poller.pollOnce();
    expect((await fetchTask(aliceToken.apiKey, taskId)).body.data).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' });
    await poller.pollOnce();
    const done = (await fetchTask(aliceToken.apiKey, taskId)).body.data;
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%' });
    expect(done.data[0]).toMatchObject({ id: `clip-${taskId}`, title: 'Foxes' });
    await poller.pollOnce();

    const lyrics = await submit(aliceToken.apiKey, 'lyrics', { prompt: 'foxes' });
    expect(lyrics.body.code).toBe('success');
    await seed.flush();
    expect((await seed.userQuota(alice.id)).quota).toBe(userBefore.quota - MUSIC_PRICE - LYRICS_PRICE);
    const many = await app.http.post('/suno/fetch').set('Authorization', `Bearer ${aliceToken.apiKey}`).send({ ids: [taskId, lyrics.body.data] });
    expect(many.body.data.map((task: { action: string }) => task.action).sort()).toEqual(['LYRICS', 'MUSIC']);
  });

  it('gives back the wallet and the token exactly, with a log row, when the upstream refuses', async () => {
    await seed.flush();
    const userBefore = await seed.userQuota(alice.id);
    const tokenBefore = await seed.tokenQuota(aliceToken.id);
    const answer = await submit(aliceToken.apiKey, 'music', { prompt: 'please refuse' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'upstream_request_error' });
    await seed.flush();
    expect(await seed.userQuota(alice.id)).toEqual(userBefore);
    expect(await seed.tokenQuota(aliceToken.id)).toEqual(tokenBefore);
    // Stored in Chinese like every log row, with its message for the console to show in the reader's language.
    const [row] = await refundLogs(alice.id, 'Suno 拒绝了任务提交（prompt refused）');
    // The hold was never logged, so its return moves the logged balance by nothing: quota 0, the amount in the text.
    expect(Number(row.quota)).toBe(0);
    expect(JSON.parse(row.other)).toMatchObject({ message_key: 'task_submit_refused', message_params: { platform: 'Suno', detail: 'prompt refused', quota: MUSIC_PRICE } });
  });

  it('refunds a task that fails later exactly once, even when two pollers race over it', async () => {
    await seed.flush();
    const userBefore = await seed.userQuota(alice.id);
    const tokenBefore = await seed.tokenQuota(aliceToken.id);
    const taskId = (await submit(aliceToken.apiKey, 'music', { prompt: 'fail-later' })).body.data;
    await poller.pollOnce();
    // A second poller, as a second gateway process would run it, races the first over the same rows.
    const other = new SunoPollerService(app.app.get(getRepositoryToken(GenericTaskEntity)), app.app.get(TaskRelaySupport), app.app.get(TaskBillingService));
    await Promise.all([poller.pollOnce(), other.pollOnce(), poller.pollOnce(), other.pollOnce()]);
    await seed.flush();
    expect((await fetchTask(aliceToken.apiKey, taskId)).body.data).toMatchObject({ status: 'FAILURE', fail_reason: 'generation failed' });
    expect(await seed.userQuota(alice.id)).toEqual({ ...userBefore, request_count: userBefore.request_count + 1 });
    expect(await seed.tokenQuota(aliceToken.id)).toEqual(tokenBefore);
    const refunds = await refundLogs(alice.id, taskId);
    expect(refunds).toHaveLength(1);
    expect(Number(refunds[0].quota)).toBe(MUSIC_PRICE);
    expect(refunds[0].content).toBe(`Suno 任务 ${taskId} 失败：generation failed，退还 ${MUSIC_PRICE} 额度`);
    expect(JSON.parse(refunds[0].other)).toMatchObject({ message_key: 'task_failed_refunded_because', message_params: { platform: 'Suno', taskId, detail: 'generation failed', quota: MUSIC_PRICE } });
  });

  it('survives an upstream that times out', async () => {
    const taskId = (await submit(aliceToken.apiKey, 'music', { prompt: 'slow' })).body.data;
    suno.hangPolls = true;
    poller.timeoutMs = 300;
    await poller.pollOnce();
    suno.hangPolls = false;
    poller.timeoutMs = 20_000;
    expect((await fetchTask(aliceToken.apiKey, taskId)).body.data.status).toBe('SUBMITTED');
    await poller.pollOnce();
    expect((await fetchTask(aliceToken.apiKey, taskId)).body.data.status).toBe('IN_PROGRESS');
  });

  it('disables a channel whose key the upstream rejects, when automatic disabling is on', async () => {
    await seed.deleteAllChannels();
    const broken = await seed.createChannel({ type: 36, base_url: suno.baseUrl, key: 'wrong-key', models: 'suno_music' });
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const answer = await submit(aliceToken.apiKey, 'music', { prompt: 'x' });
    await seed.setOption('AutomaticDisableChannelEnabled', false);
    expect(answer.status).toBe(400);
    expect(await seed.channelStatusEventually(broken, 3)).toBe(3);
  });

  it('lets only the owner and admins fetch a task, and lists tasks with zero-based pages', async () => {
    const taskId = (await submit(aliceToken.apiKey, 'music', { prompt: 'mine' })).body.data;
    expect((await fetchTask(bobKey, taskId)).status).toBe(404);
    expect((await fetchTask(rootKey, taskId)).body.data).toMatchObject({ task_id: taskId });
    const admin = await app.http.get(`/api/task/?p=0&page_size=1&task_id=${taskId}`).set('Cookie', root.cookie).set('New-Api-User', String(root.id));
    expect(admin.body.data).toMatchObject({ page: 0, total: 1 });
    expect(admin.body.data.items[0]).toMatchObject({ task_id: taskId, platform: 'suno', action: 'MUSIC', channel_id: channelId, properties: { prompt: 'mine' } });
    const own = await app.http.get('/api/task/self?p=0').set('Cookie', alice.cookie).set('New-Api-User', String(alice.id));
    expect(own.body.data.items[0]).toMatchObject({ task_id: taskId, channel_id: 0 });
    expect(own.body.data.total).toBeGreaterThan(1);
    expect((await app.http.get('/api/task/').set('Cookie', alice.cookie).set('New-Api-User', String(alice.id))).body.success).toBe(false);
  });

  it('draws music from a subscription covering suno_music, refused past its allowance, and refunds a failed task into it once', async () => {
    const plan = await root.post('/api/plan/', { name: 'Music plan', price: 0, duration_days: 30, total_quota: MUSIC_PRICE, models: ['suno_music'] });
    const listener = await registerUser(app, 'listener');
    await seed.setUserQuota(listener.id, 1_000_000);
    const token = await seed.createToken(listener.id, { unlimited_quota: true });
    const subscription = (await listener.post('/api/subscription/self', { plan_id: plan.body.data.id })).body.data as SubscriptionView;

    const taskId = (await submit(token.apiKey, 'music', { prompt: 'fail-later on plan' })).body.data;
    const refused = await submit(token.apiKey, 'music', { prompt: 'over the allowance' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'insufficient_quota' });
    await seed.flush();
    expect((await seed.consumeLogs({ userId: listener.id })).map((row) => [row.quota, Number(row.subscription_id), row.other.subscription_id])).toEqual([[MUSIC_PRICE, subscription.id, subscription.id]]);
    expect((await ownSubscriptions(app, listener))[0].used).toBe(MUSIC_PRICE);

    await poller.pollOnce();
    await Promise.all([poller.pollOnce(), poller.pollOnce()]);
    await seed.flush();
    expect((await ownSubscriptions(app, listener))[0].used).toBe(0);
    expect((await seed.userQuota(listener.id)).quota).toBe(1_000_000);
    const refunds = await refundLogs(listener.id, taskId);
    expect(refunds).toHaveLength(1);
    expect(JSON.parse(refunds[0].other)).toMatchObject({ subscription_id: subscription.id, task_id: taskId });
    await expectLedgerBalanced(app, listener, 1_000_000);
  });

  it('is off while TaskEnabled is off', async () => {
    await seed.setOption('TaskEnabled', false);
    const answer = await submit(aliceToken.apiKey, 'music', { prompt: 'x' });
    await seed.setOption('TaskEnabled', true);
    expect(answer.status).toBe(403);
  });
});
