import { sameDatabaseEnv, startTestApp, TestApp } from './test-app';

/** Two gateway instances sharing one scratch database and one scratch Redis database, as behind a load balancer. */
export interface InstancePair {
  first: TestApp;
  second: TestApp;
  stop(): Promise<void>;
}

/** Starts the pair on a random, flushed database of the Redis server at `redisUrl` (TEST_REDIS_URL). */
export async function startInstancesOnRedis(redisUrl: string, env: Record<string, string> = {}): Promise<InstancePair> {
  const redis = `${redisUrl.replace(/\/\d*$/, '')}/${1 + Math.floor(Math.random() * 14)}`;
  const { default: Redis } = await import('ioredis');
  const client = new Redis(redis);
  await client.flushdb();
  await client.quit();
  const first = await startTestApp({ ...env, REDIS_CONN_STRING: redis });
  const second = await startTestApp({ ...env, ...sameDatabaseEnv(first.config), REDIS_CONN_STRING: redis });
  return {
    first,
    second,
    async stop() {
      await second.app.close();
      second.server.close();
      await first.stop();
    },
  };
}
