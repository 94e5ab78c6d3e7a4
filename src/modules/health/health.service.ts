import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RedisService } from '../../common/redis/redis.service';
import { describeDatabaseError } from '../../database/database-unavailable';

/** Longer than this and a dependency counts as down: a probe must answer before the load balancer gives up on it. */
const CHECK_TIMEOUT_MS = 2_000;

/** One dependency's state: ok, off (not configured), or what is wrong with it. */
export type CheckState = 'ok' | 'off' | 'down' | 'pending';

export interface Readiness {
  ready: boolean;
  status: 'ready' | 'not_ready' | 'shutting_down';
  checks: { database: CheckState; redis: CheckState; migrations: CheckState };
  /** What the last failed check said, for the gateway's own log; never sent to the prober. */
  failure?: string;
}

/**
 * What /readyz answers: the database answers, Redis answers when configured, every migration
 * is applied, and the process is not shutting down. /healthz needs none of it.
 */
@Injectable()
export class HealthService {
  private shuttingDown = false;
  /** Migrations are never undone while the process runs: once all are applied, they stay so. */
  private migrationsApplied = false;
  private lastFailure = '';

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisService,
  ) {}

  /** From now on the gateway answers not ready, so load balancers stop sending before it stops listening. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  async readiness(): Promise<Readiness> {
    if (this.shuttingDown) return { ready: false, status: 'shutting_down', checks: { database: 'ok', redis: 'ok', migrations: 'ok' }, failure: 'shutting down' };
    const [database, redis] = await Promise.all([this.check(() => this.dataSource.query('SELECT 1')), this.redis.client ? this.check(() => this.redis.client!.ping()) : Promise.resolve<CheckState>('off')]);
    this.lastFailure = '';
    const migrations = database === 'ok' ? await this.migrationState() : 'pending';
    const ready = database === 'ok' && redis !== 'down' && migrations === 'ok';
    return { ready, status: ready ? 'ready' : 'not_ready', checks: { database, redis, migrations }, failure: ready ? undefined : this.lastFailure };
  }

  private async migrationState(): Promise<CheckState> {
    if (this.migrationsApplied) return 'ok';
    const state = await this.check(async () => {
      if (await this.dataSource.showMigrations()) throw new Error('migrations are not all applied');
    });
    if (state === 'ok') this.migrationsApplied = true;
    return state === 'ok' ? 'ok' : 'pending';
  }

  private async check(probe: () => Promise<unknown>): Promise<CheckState> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    });
    try {
      await Promise.race([probe(), timeout]);
      return 'ok';
    } catch (error) {
      this.lastFailure = describeDatabaseError(error);
      return 'down';
    } finally {
      clearTimeout(timer);
    }
  }
}
