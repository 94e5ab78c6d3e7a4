import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { getRepositoryToken } from '@nestjs/typeorm';
import { OptionsService } from '../src/modules/options/options.service';
import { MidjourneyTaskEntity } from '../src/modules/tasks/entities/midjourney-task.entity';
import { MidjourneyPollerService } from '../src/modules/tasks/midjourney/midjourney-poller.service';
import { TaskBillingService } from '../src/modules/tasks/task-billing.service';
import { TaskRelaySupport } from '../src/modules/tasks/task-relay-support.service';
import type { PlanView, SubscriptionView } from '../src/modules/plans/plan.wire';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { expectLedgerBalanced, ledgerLogs, ownSubscriptions } from './support/ledger-invariant';
import { RelaySeed } from './support/mock-upstream-seed';
import { MJ_SECRET, MockMidjourneyProxy } from './support/mock-task-upstreams';
import { sameDatabaseEnv, startTestApp, TestApp, testSql } from './support/test-app';

const MJ_MODELS = 'mj_imagine,mj_upscale,mj_variation,mj_describe,mj_upload,mj_inpaint,mj_modal';
const UPLOAD_PRICE = 25_000;
const IMAGINE_PRICE = 50_000; // $0.1 × 500000
const UPSCALE_PRICE = 25_000;

describe('Midjourney relay: submit, poll, bill, refund', () => {
  let app: TestApp;
  let mj: MockMidjourneyProxy;
  let seed: RelaySeed;
  let root: Session;
  let alice: Session;
  let bob: Session;
  let aliceToken: { id: number; apiKey: string };
  let bobKey: string;
  let rootKey: string;
  let poller: MidjourneyPollerService;
  let channelId: number;

  const submit = (key: string, path: string, body: object) => app.http.post(path).set('Authorization', `Bearer ${key}`).send(body);
  const fetchTask = (key: string, id: string) => app.http.get(`/mj/task/${id}/fetch`).set('mj-api-secret', key);
  const systemLogs = async (userId: number) => app.app.get(DataSource).query(testSql('SELECT quota, content, other FROM logs WHERE type = 4 AND user_id = ? ORDER BY id'), [userId]);

  beforeAll(async () => {
    mj = await new MockMidjourneyProxy().start();
    app = await startTestApp();
    seed = new RelaySeed(app);
    root = await setupRoot(app);
    alice = await registerUser(app, 'alice');
    bob = await registerUser(app, 'bob');
    await seed.setOption('DrawingEnabled', true);
    await seed.setOption('ServerAddress', 'https://gw.example');
    await seed.setUserQuota(alice.id, 10_000_000);
    await seed.setUserQuota(bob.id, 1_000_000);
    await seed.setUserQuota(root.id, 1_000_000);
    aliceToken = await seed.createToken(alice.id, { remain_quota: 5_000_000 });
    bobKey = (await seed.createToken(bob.id)).apiKey;
    rootKey = (await seed.createToken(root.id)).apiKey;
    poller = app.app.get(MidjourneyPollerService);
  });
  afterAll(async () => {
    await app.stop();
    await mj.stop();
  });
  beforeEach(async () => {
    mj.reset();
    // Each test starts with no unfinished task: the channels of earlier tests are deleted below.
    await app.app.get(DataSource).query("UPDATE midjourneys SET status = 'SUCCESS' WHERE status <> 'SUCCESS'");
    await seed.deleteAllChannels();
    channelId = await seed.createChannel({ type: 2, base_url: mj.baseUrl, key: MJ_SECRET, models: MJ_MODELS });
  });

  it('submits, polls to success with an exact charge, and serves the image through the gateway', async () => {
    const userBefore = await seed.userQuota(alice.id);
    const tokenBefore = await seed.tokenQuota(aliceToken.id);
    const answer = await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'a red fox --fast --v 6', accountFilter: { channelId: 'x' }, notifyHook: 'http://127.0.0.1:9/hook' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code: 1, description: 'Submit success' });
    const taskId = answer.body.result as string;

    // MjModeClearEnabled (on by default) strips the speed flag; MjAccountFilterEnabled (off) drops accountFilter; the hook never goes upstream.
    const upstreamBody = mj.requests.find((r) => r.path === '/mj/submit/imagine')!.body;
    expect(upstreamBody).toEqual({ prompt: 'a red fox --v 6' });

    await seed.flush();
    expect((await seed.userQuota(alice.id)).quota).toBe(userBefore.quota - IMAGINE_PRICE);
    expect((await seed.tokenQuota(aliceToken.id)).remain_quota).toBe(tokenBefore.remain_quota - IMAGINE_PRICE);
    const [log] = (await seed.consumeLogs({ userId: alice.id })).slice(-1);
    expect(log).toMatchObject({ model_name: 'mj_imagine', quota: IMAGINE_PRICE, channel_id: channelId, content: expect.stringMatching(new RegExp(`^模型价格 .+，任务 ${taskId}$`)) });
    expect(log.other).toMatchObject({ message_key: 'task_charged', message_params: { taskId } });

    expect((await fetchTask(aliceToken.apiKey, taskId)).body).toMatchObject({ id: taskId, action: 'IMAGINE', status: 'SUBMITTED', progress: '0%' });
    await poller.pollOnce();
    expect((await fetchTask(aliceToken.apiKey, taskId)).body).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' });
    await poller.pollOnce();
    const done = (await fetchTask(aliceToken.apiKey, taskId)).body;
    // MjForwardUrlEnabled (on by default): the image is served from the gateway's address.
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', promptEn: 'an english prompt', imageUrl: `https://gw.example/mj/image/${taskId}` });
    expect(done.buttons).toHaveLength(1);

    const image = await app.http.get(`/mj/image/${taskId}`).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');

    await seed.setOption('MjForwardUrlEnabled', false);
    expect((await fetchTask(aliceToken.apiKey, taskId)).body.imageUrl).toBe(`${mj.baseUrl}/images/${taskId}.png`);
    await seed.setOption('MjForwardUrlEnabled', true);

    // Finished: nothing more to poll, nothing charged twice.
    await poller.pollOnce();
    await seed.flush();
    expect((await seed.userQuota(alice.id)).quota).toBe(userBefore.quota - IMAGINE_PRICE);

    // A button on the finished image goes to the same channel, at the upscale price.
    const upscale = await submit(aliceToken.apiKey, '/mj/submit/action', { taskId, customId: `MJ::JOB::upsample::1::${taskId}` });
    expect(upscale.body.code).toBe(1);
    const simple = await submit(aliceToken.apiKey, '/mj/submit/simple-change', { content: `${taskId} U2` });
    expect(simple.body.code).toBe(1);
    await seed.flush();
    expect((await seed.userQuota(alice.id)).quota).toBe(userBefore.quota - IMAGINE_PRICE - 2 * UPSCALE_PRICE);
    const list = await app.http.get('/api/mj/self/?p=0&page_size=2').set('Cookie', alice.cookie).set('New-Api-User', String(alice.id));
    expect(list.body.data.items.map((row: { action: string }) => row.action)).toEqual(['UPSCALE', 'UPSCALE']);
  });

  it('takes the mode from the /{mode}/mj prefix and keeps the mode flags when MjModeClearEnabled is off', async () => {
    await seed.setOption('MjModeClearEnabled', false);
    await seed.setOption('MjAccountFilterEnabled', true);
    const answer = await submit(aliceToken.apiKey, '/relax/mj/submit/imagine', { prompt: 'a cat --relax', accountFilter: { remark: 'a' } });
    await seed.setOption('MjModeClearEnabled', true);
    await seed.setOption('MjAccountFilterEnabled', false);
    expect(answer.body.code).toBe(1);
    const upstream = mj.requests.find((r) => r.path === '/mj-relax/mj/submit/imagine')!;
    expect(upstream.body).toEqual({ prompt: 'a cat --relax', accountFilter: { remark: 'a' } });
  });

  it('refuses actions on an unfinished task while MjActionCheckSuccessEnabled is on', async () => {
    const taskId = (await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'unfinished' })).body.result;
    const change = await submit(aliceToken.apiKey, '/mj/submit/change', { taskId, action: 'UPSCALE', index: 1 });
    expect(change.status).toBe(400);
    expect(change.body).toMatchObject({ code: 4 });
    await seed.setOption('MjActionCheckSuccessEnabled', false);
    const allowed = await submit(aliceToken.apiKey, '/mj/submit/change', { taskId, action: 'UPSCALE', index: 1 });
    await seed.setOption('MjActionCheckSuccessEnabled', true);
    expect(allowed.body.code).toBe(1);
    // Nobody acts on someone else's task.
    expect((await submit(bobKey, '/mj/submit/change', { taskId, action: 'UPSCALE', index: 1 })).status).toBe(404);
  });

  it('gives back the wallet and the token exactly, with a log row, when the upstream refuses', async () => {
    await seed.flush();
    const userBefore = await seed.userQuota(alice.id);
    const tokenBefore = await seed.tokenQuota(aliceToken.id);
    const logsBefore = (await systemLogs(alice.id)).length;
    const answer = await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'please refuse this' });
    expect(answer.body).toMatchObject({ code: 4, description: 'banned prompt' });
    await seed.flush();
    expect(await seed.userQuota(alice.id)).toEqual(userBefore);
    expect(await seed.tokenQuota(aliceToken.id)).toEqual(tokenBefore);
    const logs = await systemLogs(alice.id);
    expect(logs).toHaveLength(logsBefore + 1);
    expect(logs[logs.length - 1].content).toBe(`Midjourney 拒绝了任务提交（4: banned prompt），退还预扣额度 ${IMAGINE_PRICE}`);
    expect(JSON.parse(logs[logs.length - 1].other)).toMatchObject({ message_key: 'task_submit_refused', message_params: { platform: 'Midjourney', detail: '4: banned prompt', quota: IMAGINE_PRICE } });
  });

  it('refunds a task that fails later, exactly once even when polls overlap', async () => {
    await seed.flush();
    const userBefore = await seed.userQuota(alice.id);
    const tokenBefore = await seed.tokenQuota(aliceToken.id);
    const taskId = (await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'fail-later please' })).body.result;
    await poller.pollOnce();
    await Promise.all([poller.pollOnce(), poller.pollOnce(), poller.pollOnce()]);
    await seed.flush();
    expect((await fetchTask(aliceToken.apiKey, taskId)).body).toMatchObject({ status: 'FAILURE', failReason: 'job banned by moderator' });
    // The request still counts; every unit of quota is back, and out of the used totals.
    expect(await seed.userQuota(alice.id)).toEqual({ ...userBefore, request_count: userBefore.request_count + 1 });
    expect(await seed.tokenQuota(aliceToken.id)).toEqual(tokenBefore);
    const refunds = (await systemLogs(alice.id)).filter((row: { content: string }) => row.content.includes(taskId));
    expect(refunds).toHaveLength(1);
    expect(Number(refunds[0].quota)).toBe(IMAGINE_PRICE);
    expect(JSON.parse(refunds[0].other)).toMatchObject({ message_key: 'task_failed_refunded_because', message_params: { platform: 'Midjourney', taskId, detail: 'job banned by moderator', quota: IMAGINE_PRICE } });
  });

  it('refunds once when two pollers race over the same failed task, undoing every total with one log row', async () => {
    // A second poller, as a second gateway process would run it, over the same database.
    const other = new MidjourneyPollerService(app.app.get(getRepositoryToken(MidjourneyTaskEntity)), app.app.get(TaskRelaySupport), app.app.get(TaskBillingService), app.app.get(OptionsService));
    await seed.flush();
    const userBefore = await seed.userQuota(alice.id);
    const tokenBefore = await seed.tokenQuota(aliceToken.id);
    const channelUsed = async () => Number((await app.app.get(DataSource).query(testSql('SELECT used_quota FROM channels WHERE id = ?'), [channelId]))[0].used_quota);
    const taskId = (await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'fail-later race' })).body.result;
    await seed.flush();
    const channelCharged = await channelUsed();
    await poller.pollOnce();
    // Both read the task IN_PROGRESS, both hear FAILURE: only one wins the move, and with it the refund.
    await Promise.all([poller.pollOnce(), other.pollOnce(), poller.pollOnce(), other.pollOnce()]);
    await seed.flush();
    expect(await seed.userQuota(alice.id)).toEqual({ ...userBefore, request_count: userBefore.request_count + 1 });
    expect(await seed.tokenQuota(aliceToken.id)).toEqual(tokenBefore);
    expect(await channelUsed()).toBe(channelCharged - IMAGINE_PRICE);
    const refunds = await app.app.get(DataSource).query(testSql('SELECT quota, token_id, model_name, channel_id FROM logs WHERE type = 4 AND content LIKE ?'), [`%${taskId}%`]);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ token_id: aliceToken.id, model_name: 'mj_imagine', channel_id: channelId });
    expect(Number(refunds[0].quota)).toBe(IMAGINE_PRICE);
  });

  it('keeps a failed task unfinished when its refund cannot be written: the status moves only with the refund', async () => {
    const carol = await registerUser(app, 'carol');
    await seed.setUserQuota(carol.id, 1_000_000);
    const carolKey = (await seed.createToken(carol.id)).apiKey;
    const taskId = (await submit(carolKey, '/mj/submit/imagine', { prompt: 'fail-later orphan' })).body.result;
    await seed.flush();
    await poller.pollOnce();
    // The paying user's row is gone, so the ledger refuses the refund and the claim rolls back with it.
    await app.app.get(DataSource).query(testSql('DELETE FROM users WHERE id = ?'), [carol.id]);
    await poller.pollOnce();
    const [row] = await app.app.get(DataSource).query(testSql('SELECT status, progress FROM midjourneys WHERE mj_id = ?'), [taskId]);
    expect(row).toEqual({ status: 'IN_PROGRESS', progress: '50%' });
    expect(await app.app.get(DataSource).query(testSql('SELECT id FROM logs WHERE type = 4 AND content LIKE ?'), [`%${taskId}%`])).toHaveLength(0);
  });

  it('records an upload as a finished task at the upload price, with its first link as the image', async () => {
    await seed.flush();
    const userBefore = await seed.userQuota(alice.id);
    const answer = await submit(aliceToken.apiKey, '/mj/submit/upload-discord-images', { base64Array: ['data:image/png;base64,AAAA'] });
    expect(answer.body).toEqual({ code: 1, description: 'Success', result: ['https://cdn.invalid/a.png'] });
    await seed.flush();
    expect((await seed.userQuota(alice.id)).quota).toBe(userBefore.quota - UPLOAD_PRICE);
    const [log] = (await seed.consumeLogs({ userId: alice.id })).slice(-1);
    expect(log).toMatchObject({ model_name: 'mj_upload', quota: UPLOAD_PRICE });
    const mine = await app.http.get('/api/mj/self/?p=0').set('Cookie', alice.cookie).set('New-Api-User', String(alice.id));
    expect(mine.body.data.items[0]).toMatchObject({ action: 'UPLOAD', code: 1, mj_id: '', status: 'SUCCESS', progress: '100%', image_url: 'https://cdn.invalid/a.png', quota: UPLOAD_PRICE });
    // Nothing to poll: the next round asks the upstream for no task.
    await poller.pollOnce();
    expect(mj.requests.filter((request) => request.path === '/mj/task/list-by-condition')).toHaveLength(0);
  });

  it('opens an inpaint window free of charge (the modal that follows is billed)', async () => {
    const taskId = (await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'to inpaint' })).body.result;
    await poller.pollOnce();
    await poller.pollOnce();
    await seed.flush();
    const before = await seed.userQuota(alice.id);
    const inpaint = await submit(aliceToken.apiKey, '/mj/submit/action', { taskId, customId: `MJ::Inpaint::1::${taskId}::SOLO` });
    expect(inpaint.body).toMatchObject({ code: 1 });
    const modal = await submit(aliceToken.apiKey, '/mj/submit/modal', { taskId: inpaint.body.result, prompt: 'a hat', maskBase64: 'AAAA' });
    expect(modal.body).toMatchObject({ code: 1 });
    await seed.flush();
    expect((await seed.userQuota(alice.id)).quota).toBe(before.quota - IMAGINE_PRICE);
    const logs = (await seed.consumeLogs({ userId: alice.id })).slice(-2);
    expect(logs.map((row) => [row.model_name, row.quota])).toEqual([['mj_inpaint', 0], ['mj_modal', IMAGINE_PRICE]]);
  });

  it('disables the channel on code 3 when automatic disabling is on', async () => {
    await seed.setOption('AutomaticDisableChannelEnabled', true);
    const answer = await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'code3' });
    await seed.setOption('AutomaticDisableChannelEnabled', false);
    expect(answer.body.code).toBe(3);
    expect(await seed.channelStatusEventually(channelId, 3)).toBe(3);
  });

  it('lets only the owner and admins fetch a task', async () => {
    const taskId = (await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'mine' })).body.result;
    expect((await fetchTask(bobKey, taskId)).status).toBe(404);
    expect((await fetchTask(rootKey, taskId)).body).toMatchObject({ id: taskId });
    const listed = await submit(bobKey, '/mj/task/list-by-condition', { ids: [taskId] });
    expect(listed.body).toEqual([]);
    expect((await submit(rootKey, '/mj/task/list-by-condition', { ids: [taskId] })).body).toHaveLength(1);
  });

  it('keeps polling other channels while one times out', async () => {
    const slow = await new MockMidjourneyProxy().start();
    try {
      const slowChannel = await seed.createChannel({ type: 5, base_url: slow.baseUrl, key: MJ_SECRET, models: 'mj_blend', name: 'slow' });
      const slowTask = (await submit(aliceToken.apiKey, '/mj/submit/blend', { base64Array: ['data:image/png;base64,AAAA'] })).body.result;
      const fastTask = (await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'quick' })).body.result;
      slow.hangPolls = true;
      poller.timeoutMs = 300;
      await poller.pollOnce();
      poller.timeoutMs = 20_000;
      expect((await fetchTask(aliceToken.apiKey, fastTask)).body.status).toBe('IN_PROGRESS');
      expect((await fetchTask(aliceToken.apiKey, slowTask)).body.status).toBe('SUBMITTED');
      expect(slowChannel).toBeGreaterThan(0);
    } finally {
      await slow.stop();
    }
  });

  it('calls the client notifyHook when MjNotifyEnabled is on', async () => {
    const received: unknown[] = [];
    const hook: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      await seed.setOption('MjNotifyEnabled', true);
      const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const taskId = (await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'tell me', notifyHook: hookUrl })).body.result;
      await seed.setOption('MjNotifyEnabled', false);
      expect(mj.requests.find((r) => r.path === '/mj/submit/imagine')!.body).not.toHaveProperty('notifyHook');
      await poller.pollOnce();
      for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(received[0]).toMatchObject({ id: taskId, status: 'IN_PROGRESS', progress: '50%' });
    } finally {
      hook.closeAllConnections();
      await new Promise<void>((resolve) => hook.close(() => resolve()));
    }
  });

  it('lists drawings for admins with filters and zero-based pages, and only their own for users', async () => {
    for (const prompt of ['first', 'second']) await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt });
    const admin = await app.http.get(`/api/mj/?p=0&page_size=1&channel_id=${channelId}`).set('Cookie', root.cookie).set('New-Api-User', String(root.id));
    expect(admin.body.success).toBe(true);
    expect(admin.body.data).toMatchObject({ page: 0, page_size: 1 });
    expect(admin.body.data.items[0].channel_id).toBe(channelId);
    const second = await app.http.get(`/api/mj/?p=1&page_size=1&channel_id=${channelId}`).set('Cookie', root.cookie).set('New-Api-User', String(root.id));
    expect(second.body.data.items[0].id).toBeLessThan(admin.body.data.items[0].id);
    const byId = await app.http.get(`/api/mj/?mj_id=${admin.body.data.items[0].mj_id}`).set('Cookie', root.cookie).set('New-Api-User', String(root.id));
    expect(byId.body.data.total).toBe(1);
    const own = await app.http.get('/api/mj/self/?p=0').set('Cookie', bob.cookie).set('New-Api-User', String(bob.id));
    expect(own.body.data.total).toBe(0);
    const mine = await app.http.get('/api/mj/self/').set('Cookie', alice.cookie).set('New-Api-User', String(alice.id));
    expect(mine.body.data.items.every((row: { channel_id: number }) => row.channel_id === 0)).toBe(true);
    expect((await app.http.get('/api/mj/').set('Cookie', alice.cookie).set('New-Api-User', String(alice.id))).body.success).toBe(false);
  });

  it('is off while DrawingEnabled is off', async () => {
    await seed.setOption('DrawingEnabled', false);
    const answer = await submit(aliceToken.apiKey, '/mj/submit/imagine', { prompt: 'x' });
    await seed.setOption('DrawingEnabled', true);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 4, type: 'feature_disabled' });
  });

  describe('drawing on a subscription', () => {
    const WALLET = 1_000_000;
    const TOKEN_CAP = 5_000_000;

    /** A user with WALLET in the wallet, a capped token, and a subscription to a free plan with these terms. */
    async function subscriber(username: string, terms: Partial<PlanView>): Promise<{ user: Session; token: { id: number; apiKey: string }; subscription: SubscriptionView }> {
      const created = await root.post('/api/plan/', { name: `${username} plan`, price: 0, duration_days: 30, ...terms });
      expect(created.body).toMatchObject({ success: true });
      const user = await registerUser(app, username);
      await seed.setUserQuota(user.id, WALLET);
      const token = await seed.createToken(user.id, { remain_quota: TOKEN_CAP });
      const bought = await user.post('/api/subscription/self', { plan_id: (created.body.data as PlanView).id });
      expect(bought.body).toMatchObject({ success: true });
      return { user, token, subscription: bought.body.data as SubscriptionView };
    }

    const usedOf = async (user: Session, subscriptionId: number) => (await ownSubscriptions(app, user)).find((subscription) => subscription.id === subscriptionId)!.used;

    it('draws a task from the subscription covering its model: the log row names it, its use moves, the wallet does not; past its allowance the task is refused', async () => {
      const { user, token, subscription } = await subscriber('mjsub', { total_quota: 2 * IMAGINE_PRICE, models: ['mj_imagine'] });
      // A refused submit gives the hold back to the plan.
      expect((await submit(token.apiKey, '/mj/submit/imagine', { prompt: 'please refuse' })).body).toMatchObject({ code: 4, description: 'banned prompt' });
      // Given back write-behind, as every relay settlement: written before the plan is asked again.
      await seed.flush();
      for (const prompt of ['first on plan', 'second on plan']) expect((await submit(token.apiKey, '/mj/submit/imagine', { prompt })).body).toMatchObject({ code: 1 });
      const submits = mj.requests.length;

      const third = await submit(token.apiKey, '/mj/submit/imagine', { prompt: 'third on plan' });
      expect(third.status).toBe(403);
      expect(third.body).toMatchObject({ code: 4, type: 'insufficient_quota', description: expect.stringContaining('Your subscription') });
      expect(mj.requests).toHaveLength(submits);

      await seed.flush();
      expect((await seed.userQuota(user.id)).quota).toBe(WALLET);
      // The token's cap counts every call, whoever pays.
      expect((await seed.tokenQuota(token.id)).remain_quota).toBe(TOKEN_CAP - 2 * IMAGINE_PRICE);
      expect(await usedOf(user, subscription.id)).toBe(2 * IMAGINE_PRICE);
      const draws = await seed.consumeLogs({ userId: user.id });
      expect(draws.map((row) => [row.model_name, row.quota, Number(row.subscription_id), row.other.subscription_id])).toEqual([
        ['mj_imagine', IMAGINE_PRICE, subscription.id, subscription.id],
        ['mj_imagine', IMAGINE_PRICE, subscription.id, subscription.id],
      ]);
      await expectLedgerBalanced(app, user, WALLET);
    });

    it('pays from the wallet once the plan is used up, when the plan allows it', async () => {
      const { user, token, subscription } = await subscriber('mjoverflow', { total_quota: IMAGINE_PRICE, allow_wallet_fallback: true });
      for (const prompt of ['on plan', 'on wallet']) expect((await submit(token.apiKey, '/mj/submit/imagine', { prompt })).body).toMatchObject({ code: 1 });
      await seed.flush();
      expect((await seed.consumeLogs({ userId: user.id })).map((row) => Number(row.subscription_id))).toEqual([subscription.id, 0]);
      expect((await seed.userQuota(user.id)).quota).toBe(WALLET - IMAGINE_PRICE);
      expect(await usedOf(user, subscription.id)).toBe(IMAGINE_PRICE);
      await expectLedgerBalanced(app, user, WALLET);
    });

    it('refunds a task that fails later into the subscription it was drawn from, once, when a restarted instance races the first over it', async () => {
      const { user, token, subscription } = await subscriber('mjsubfail', {});
      const taskId = (await submit(token.apiKey, '/mj/submit/imagine', { prompt: 'fail-later on plan' })).body.result;
      await seed.flush();
      expect(await usedOf(user, subscription.id)).toBe(IMAGINE_PRICE);
      const [row] = await app.app.get(DataSource).query(testSql('SELECT subscription_id, token_quota FROM midjourneys WHERE mj_id = ?'), [taskId]);
      expect({ subscription: Number(row.subscription_id), fromToken: Number(row.token_quota) }).toEqual({ subscription: subscription.id, fromToken: IMAGINE_PRICE });

      // A second gateway on the same database, started after the submit: it has no hold in memory, only the task row.
      const restarted = await startTestApp(sameDatabaseEnv(app.config));
      try {
        const other = restarted.app.get(MidjourneyPollerService);
        await poller.pollOnce();
        await Promise.all([poller.pollOnce(), other.pollOnce(), poller.pollOnce(), other.pollOnce()]);
        await other.pollOnce();
      } finally {
        await restarted.stop();
      }
      await seed.flush();
      expect((await fetchTask(token.apiKey, taskId)).body).toMatchObject({ status: 'FAILURE' });
      expect(await usedOf(user, subscription.id)).toBe(0);
      expect((await seed.userQuota(user.id)).quota).toBe(WALLET);
      expect(await seed.tokenQuota(token.id)).toEqual({ remain_quota: TOKEN_CAP, used_quota: 0 });
      const refunds = (await ledgerLogs(app, user.id)).filter((log) => log.other.reason === 'refund');
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({ type: 4, quota: IMAGINE_PRICE, subscription_id: subscription.id, other: { subscription_id: subscription.id, task_id: taskId, message_key: 'task_failed_refunded_because' } });
      await expectLedgerBalanced(app, user, WALLET);
    });
  });
});
