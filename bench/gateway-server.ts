import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { createGatewayApp } from '../src/app.factory';
import { CACHE_NAMES } from '../src/common/cache/cache-names';
import { CacheSyncService } from '../src/common/cache/cache-sync.service';
import { SECRET_BOX, SecretBox } from '../src/common/crypto/secret-box';
import { loadAppConfig } from '../src/config/app-config';
import { OptionsService } from '../src/modules/options/options.service';
import { UsersService } from '../src/modules/users/users.service';
import { answerStatsRequests, type ReadyMessage } from './process-stats';

/**
 * The gateway under test, on a fresh SQLite database: root set up over HTTP, quota added
 * through the users service, and one channel and one token written through the app's
 * DataSource and SecretBox (with the cache invalidations a management write makes).
 */
async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-bench-'));
  const config = loadAppConfig({ SQLITE_PATH: path.join(dir, 'bench.db'), DATA_DIR: dir, SESSION_SECRET: 'bench-secret', WEB_DIST_DIR: path.join(dir, 'no-web') });
  const gateway = await createGatewayApp(config, ['error']);
  await new Promise<void>((resolve) => gateway.server.listen(0, '127.0.0.1', () => resolve()));
  const port = (gateway.server.address() as AddressInfo).port;

  const setup = await fetch(`http://127.0.0.1:${port}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'root', password: 'bench-pass-1', confirmPassword: 'bench-pass-1' }),
  });
  if (!((await setup.json()) as { success: boolean }).success) throw new Error('setup failed');

  const app = gateway.app;
  const dataSource = app.get(DataSource);
  const cacheSync = app.get(CacheSyncService);
  const [{ id: rootId }] = (await dataSource.query('SELECT id FROM users ORDER BY id LIMIT 1')) as Array<{ id: number }>;
  await app.get(UsersService).addQuota(rootId, 1e15);
  await cacheSync.invalidate(CACHE_NAMES.users, String(rootId));
  await app.get(OptionsService).set('ModelRatio', JSON.stringify({ 'bench-model': 1 }), 100);

  const secretBox = app.get<SecretBox>(SECRET_BOX);
  const channel = await dataSource
    .createQueryBuilder()
    .insert()
    .into('channels')
    .values({ name: 'bench', type: 1, key: secretBox.encrypt('sk-bench-upstream'), base_url: process.env.UPSTREAM_URL ?? '', models: 'bench-model', group: 'default', status: 1 })
    .execute();
  const channelId = Number(channel.identifiers[0].id);
  await dataSource.createQueryBuilder().insert().into('abilities').values({ group: 'default', model: 'bench-model', channel_id: channelId, enabled: true, priority: 0, weight: 0 }).execute();
  await cacheSync.invalidate(CACHE_NAMES.channels);

  const key = randomBytes(24).toString('hex');
  await dataSource.createQueryBuilder().insert().into('tokens').values({ user_id: rootId, key, name: 'bench', status: 1, remain_quota: 1e15, expired_time: -1 }).execute();
  await cacheSync.invalidate(CACHE_NAMES.tokens, key);

  answerStatsRequests();
  const ready: ReadyMessage = { kind: 'ready', port, apiKey: `sk-${key}` };
  process.send?.(ready);
}

void main();
