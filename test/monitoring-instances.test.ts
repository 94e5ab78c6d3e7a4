import { SchedulerRegistry } from '@nestjs/schedule';
import { CHANNEL_TESTS_JOB } from '../src/modules/monitoring/monitoring.jobs';
import { setupRoot } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { RelaySeed } from './support/mock-upstream-seed';
import { sameDatabaseEnv, startTestApp, TestApp } from './support/test-app';

/** A job period of 0.02 minutes (1.2 s), so the real timers fire within the test. */
const FREQUENCY_MINUTES = '0.02';

const chatRequests = (upstream: MockUpstream) => upstream.requests.filter((request) => request.path.endsWith('/chat/completions')).length;

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

describe('jobs run on the master instance only (two instances, one database)', () => {
  let master: TestApp;
  let slave: TestApp;
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    master = await startTestApp({ CHANNEL_TEST_FREQUENCY: FREQUENCY_MINUTES });
    slave = await startTestApp({ ...sameDatabaseEnv(master.config), NODE_TYPE: 'slave', CHANNEL_TEST_FREQUENCY: FREQUENCY_MINUTES });
    await setupRoot(master);
    await new RelaySeed(master).createChannel({ base_url: upstream.url, models: 'gpt-4o-mini' });
  });
  afterAll(async () => {
    await slave?.stop();
    await master?.stop();
    await upstream.stop();
  });

  it('registers jobs on the master and none on the slave', () => {
    expect(master.app.get(SchedulerRegistry).getIntervals()).toContain(CHANNEL_TESTS_JOB);
    expect(master.app.get(SchedulerRegistry).getCronJobs().size).toBeGreaterThan(0);
    expect(slave.app.get(SchedulerRegistry).getIntervals()).toEqual([]);
    expect(slave.app.get(SchedulerRegistry).getCronJobs().size).toBe(0);
  });

  it('tests channels from the master; with the master\'s job stopped, the slave never tests them', async () => {
    expect(await until(() => chatRequests(upstream) > 0, 5_000)).toBe(true);
    master.app.get(SchedulerRegistry).deleteInterval(CHANNEL_TESTS_JOB);
    await new Promise((resolve) => setTimeout(resolve, 300));
    upstream.reset();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(chatRequests(upstream)).toBe(0);
  });
});
