import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { DataSource } from 'typeorm';
import { CACHE_NAMES } from '../../src/common/cache/cache-names';
import { CacheSyncService } from '../../src/common/cache/cache-sync.service';
import { SECRET_BOX, SecretBox } from '../../src/common/crypto/secret-box';
import { queryAnyDialect } from '../../src/database/dialect';
import { LogDatabase } from '../../src/database/log-database';
import { DEADLOCK_ATTEMPTS, isDeadlock } from '../../src/database/server-writer';
import { SettlementBatcherService } from '../../src/modules/billing/settlement-batcher.service';
import { LogOutboxService } from '../../src/modules/logs/log-outbox.service';
import { OptionsService } from '../../src/modules/options/options.service';
import { setupRoot, type Session } from './accounts';
import { MockUpstream } from './mock-upstream';
import { startTestApp, type TestApp } from './test-app';

/**
 * Rows the relay tests need, written straight through the app's DataSource (the management
 * API is built elsewhere), each followed by the cache invalidation a real write would make.
 */
export class RelaySeed {
  private readonly dataSource: DataSource;
  private readonly cacheSync: CacheSyncService;
  private readonly secretBox: SecretBox;

  constructor(private readonly app: TestApp) {
    this.dataSource = app.app.get(DataSource);
    this.cacheSync = app.app.get(CacheSyncService);
    this.secretBox = app.app.get<SecretBox>(SECRET_BOX);
  }

  async setOption(key: string, value: string | number | boolean): Promise<void> {
    await this.app.app.get(OptionsService).set(key, value, 100);
  }

  async setUserQuota(userId: number, quota: number, extra: Record<string, unknown> = {}): Promise<void> {
    await this.dataSource.createQueryBuilder().update('users').set({ quota, ...extra }).where('id = :id', { id: userId }).execute();
    await this.cacheSync.invalidate(CACHE_NAMES.users, String(userId));
  }

  async createToken(userId: number, fields: Record<string, unknown> = {}): Promise<{ id: number; key: string; apiKey: string }> {
    const key = randomBytes(24).toString('hex');
    // Stored as the gateway stores keys: encrypted, found by their keyed hash.
    const row = { user_id: userId, key: this.secretBox.encrypt(key), key_hash: this.secretBox.keyedHash(key), name: `token-${key.slice(0, 6)}`, status: 1, remain_quota: 1_000_000, created_time: 0, ...fields };
    const result = await this.dataSource.createQueryBuilder().insert().into('tokens').values(row).execute();
    const id = Number(result.identifiers[0]?.id ?? result.raw.insertId ?? result.raw);
    await this.cacheSync.invalidate(CACHE_NAMES.tokens, row.key_hash);
    return { id, key, apiKey: `sk-${key}` };
  }

  async updateToken(key: string, fields: Record<string, unknown>): Promise<void> {
    const hash = this.secretBox.keyedHash(key);
    await this.dataSource.createQueryBuilder().update('tokens').set(fields).where('key_hash = :hash', { hash }).execute();
    await this.cacheSync.invalidate(CACHE_NAMES.tokens, hash);
  }

  /** A channel with its abilities for each of its groups and models. */
  async createChannel(fields: { name?: string; type?: number; key?: string; base_url: string; models: string; group?: string; priority?: number; weight?: number } & Record<string, unknown>): Promise<number> {
    const row = { name: 'mock', type: 1, key: 'sk-upstream-secret-key', group: 'default', priority: 0, weight: 0, status: 1, created_time: 0, ...fields };
    row.key = this.secretBox.encrypt(String(row.key));
    const result = await this.dataSource.createQueryBuilder().insert().into('channels').values(row).execute();
    const id = Number(result.identifiers[0]?.id ?? result.raw.insertId ?? result.raw);
    const abilities = [];
    for (const group of String(row.group).split(',')) {
      for (const model of String(row.models).split(',')) {
        abilities.push({ group: group.trim(), model: model.trim(), channel_id: id, enabled: row.status === 1, priority: row.priority, weight: row.weight, tag: null });
      }
    }
    await this.dataSource.createQueryBuilder().insert().into('abilities').values(abilities).execute();
    await this.cacheSync.invalidate(CACHE_NAMES.channels);
    return id;
  }

  async deleteAllChannels(): Promise<void> {
    await this.queryRetryingDeadlocks('DELETE FROM abilities');
    await this.queryRetryingDeadlocks('DELETE FROM channels');
    await this.cacheSync.invalidate(CACHE_NAMES.channels);
  }

  /**
   * A whole-table DELETE on MySQL may be picked as a deadlock victim against work the last
   * test started off the request path (an auto-disable still updating its channel and
   * abilities): it is run again, as MySQL advises.
   */
  private async queryRetryingDeadlocks(sql: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.dataSource.query(sql);
        return;
      } catch (error) {
        if (attempt >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
      }
    }
  }

  async channel(id: number): Promise<{ status: number; other_info: string | null; used_quota: number; response_time: number; test_time: number }> {
    const [row] = await queryAnyDialect<Record<'status' | 'used_quota' | 'response_time' | 'test_time', number | string> & { other_info: string | null }>(this.dataSource, 'SELECT status, other_info, used_quota, response_time, test_time FROM channels WHERE id = ?', [id]);
    return { ...row, status: Number(row.status), used_quota: Number(row.used_quota), response_time: Number(row.response_time), test_time: Number(row.test_time) };
  }

  /** The channel's status once it is `expected`, or its last status after ~2 s: disabling happens off the request path. */
  async channelStatusEventually(id: number, expected: number): Promise<number> {
    let status = (await this.channel(id)).status;
    for (let attempt = 0; attempt < 40 && status !== expected; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await this.channel(id)).status;
    }
    return status;
  }

  /** Waits until every queued settlement is in the database. */
  /** Writes every queued settlement, and its log rows on to a separate log database (LOG_SQL_DSN) when there is one. */
  async flush(): Promise<void> {
    if (!(await this.app.app.get(SettlementBatcherService).drain())) throw new Error('settlements could not be written');
    if (!(await this.app.app.get(LogOutboxService).drain())) throw new Error('log rows could not be copied to the log database');
  }

  /** The newest consume log of a token, once every queued settlement is written. */
  async lastConsumeLog(tokenId: number): Promise<(Record<string, unknown> & { quota: number; other: Record<string, unknown> }) | undefined> {
    await this.flush();
    return (await this.consumeLogs({ tokenId })).slice(-1)[0];
  }

  async userQuota(userId: number): Promise<{ quota: number; used_quota: number; request_count: number }> {
    const [row] = await queryAnyDialect<Record<string, number | string | null>>(this.dataSource, 'SELECT quota, used_quota, request_count FROM users WHERE id = ?', [userId]);
    return { quota: Number(row.quota), used_quota: Number(row.used_quota), request_count: Number(row.request_count) };
  }

  async tokenQuota(tokenId: number): Promise<{ remain_quota: number; used_quota: number }> {
    const [row] = await queryAnyDialect<Record<string, number | string | null>>(this.dataSource, 'SELECT remain_quota, used_quota FROM tokens WHERE id = ?', [tokenId]);
    return { remain_quota: Number(row.remain_quota), used_quota: Number(row.used_quota) };
  }

  async consumeLogs(where: { userId?: number; tokenId?: number } = {}): Promise<Array<Record<string, unknown> & { quota: number; other: Record<string, unknown> }>> {
    const clauses = ['type = 2'];
    const params: number[] = [];
    if (where.userId !== undefined) {
      clauses.push('user_id = ?');
      params.push(where.userId);
    }
    if (where.tokenId !== undefined) {
      clauses.push('token_id = ?');
      params.push(where.tokenId);
    }
    const logs = this.app.app.get(LogDatabase).dataSource;
    const rows = await queryAnyDialect<Record<string, unknown>>(logs, `SELECT * FROM logs WHERE ${clauses.join(' AND ')} ORDER BY id`, params);
    return rows.map((row) => ({ ...row, quota: Number(row.quota), prompt_tokens: Number(row.prompt_tokens), completion_tokens: Number(row.completion_tokens), other: JSON.parse(String(row.other ?? '{}')) }));
  }
}

/** The official SDK pointed at the gateway, without its own retries (so each call is one request). */
export function openaiClient(app: TestApp, apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${app.baseUrl}/v1`, maxRetries: 0 });
}

/** The app with root set up, an OpenAI-format mock upstream and a seeder: what most relay tests start from. */
export interface RelayTestbed {
  app: TestApp;
  upstream: MockUpstream;
  seed: RelaySeed;
  root: Session;
  stop(): Promise<void>;
}

export async function startRelayTestbed(): Promise<RelayTestbed> {
  const upstream = await new MockUpstream().start();
  const app = await startTestApp();
  const seed = new RelaySeed(app);
  const root = await setupRoot(app);
  const stop = async () => {
    await app.stop();
    await upstream.stop();
  };
  return { app, upstream, seed, root, stop };
}
