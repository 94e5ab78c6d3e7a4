import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sqlDialect } from '../../database/dialect';
import { RawSql } from '../../database/raw-sql';
import { isDeadlock } from '../../database/server-writer';
import { OptionsService } from '../options/options.service';
import { windowFor } from './budget-periods';
import type { BudgetPeriod, BudgetUsage, BudgetWindow } from './budget.wire';

/** Whose windows: a token's, a user's or a subscription's (`sub`, its plan's windows). */
export type BudgetHolderKind = 'token' | 'user' | 'sub';

/** A holder and the windows set on it. */
export interface BudgetHolder {
  kind: BudgetHolderKind;
  id: number;
  windows: readonly BudgetWindow[];
}

/** One window a hold must fit: the open window of a holder's period, identified by its start. */
export interface WindowTake {
  kind: BudgetHolderKind;
  holderId: number;
  period: BudgetPeriod;
  quota: number;
  windowStart: number;
  resetsAt: number;
}

/** A hold refused by a window: which one, and when it resets. */
export class BudgetExceededError extends Error {
  constructor(readonly take: WindowTake) {
    super(`the ${take.kind}'s ${take.period} budget window is exhausted`);
    this.name = 'BudgetExceededError';
  }
}

/** The clock of the budget windows, a provider of its own so that tests can move it. */
@Injectable()
export class BudgetClock {
  /** Unix seconds. */
  nowSeconds(): number {
    return Math.floor(Date.now() / 1000);
  }
}

interface UsageRow {
  holder_kind: string;
  holder_id: number | string;
  period: string;
  window_start: number | string;
  resets_at: number | string;
  used: number | string;
}

/** How many open windows this process remembers before it starts over (each costs one read to learn again). */
const OPEN_WINDOWS_KEPT = 100_000;

/**
 * The budget windows' open periods. Each holder and period has one row in `budget_usage`
 * (its open window's start, reset and use). The ledger takes a hold from it with a guarded
 * UPDATE in the hold's own transaction (`used + amount <= quota AND window_start = start`),
 * and the settlement moves it by the difference in the settlement's transaction, both only
 * in the window the hold was taken in: so use and balance move together, and the database
 * decides under any concurrency, on any number of instances.
 *
 * What this service adds is the rollover: before a hold, the window a holder's period is in
 * must be the open one. A closed one is rolled over in place by `UPDATE … WHERE resets_at <=
 * now`, which only one instance can win; everyone then reads the row back. The open windows
 * are remembered per process, so a hold pays for this once per window.
 */
@Injectable()
export class BudgetWindowService {
  private readonly open = new Map<string, { start: number; end: number }>();
  private readonly rolling = new Map<string, Promise<{ start: number; end: number }>>();
  private readonly insertIgnore: string;

  constructor(
    private readonly sql: RawSql,
    private readonly options: OptionsService,
    private readonly clock: BudgetClock,
    dataSource: DataSource,
  ) {
    const columns = 'budget_usage (holder_kind, holder_id, period, window_start, resets_at, used) VALUES (?, ?, ?, ?, ?, 0)';
    this.insertIgnore = { sqlite: `INSERT OR IGNORE INTO ${columns}`, mysql: `INSERT IGNORE INTO ${columns}`, postgres: `INSERT INTO ${columns} ON CONFLICT DO NOTHING` }[sqlDialect(dataSource)];
  }

  nowSeconds(): number {
    return this.clock.nowSeconds();
  }

  /** The open window of each of the holders' windows, rolled over first where it closed. */
  async takesFor(holders: readonly BudgetHolder[]): Promise<WindowTake[]> {
    const now = this.clock.nowSeconds();
    const takes: WindowTake[] = [];
    for (const holder of holders) {
      for (const window of holder.windows) {
        const key = keyOf(holder.kind, holder.id, window.period);
        let span = this.open.get(key);
        if (!span || span.end <= now) span = await this.rollOver(holder.kind, holder.id, window.period, now);
        takes.push({ kind: holder.kind, holderId: holder.id, period: window.period, quota: window.quota, windowStart: span.start, resetsAt: span.end });
      }
    }
    return takes;
  }

  /**
   * After a take failed: whether the window is in fact full (answers the refusal), or whether
   * it was rolled over meanwhile by another instance (forgets it, answers undefined: try again).
   */
  async confirmRefusal(take: WindowTake): Promise<BudgetExceededError | undefined> {
    const [row] = await this.sql.select<UsageRow>('SELECT window_start, resets_at FROM budget_usage WHERE holder_kind = ? AND holder_id = ? AND period = ?', [take.kind, take.holderId, take.period]);
    if (row && Number(row.window_start) === take.windowStart) return new BudgetExceededError(take);
    this.open.delete(keyOf(take.kind, take.holderId, take.period));
    return undefined;
  }

  /** The windows' state as the token and user JSON shows it. */
  async usage(kind: BudgetHolderKind, holders: ReadonlyArray<{ id: number; windows: readonly BudgetWindow[] | null }>): Promise<Map<number, BudgetUsage[]>> {
    const result = new Map<number, BudgetUsage[]>();
    const ids = holders.filter((holder) => holder.windows && holder.windows.length > 0).map((holder) => holder.id);
    if (ids.length === 0) return result;
    const rows = await this.sql.select<UsageRow>(`SELECT holder_id, period, window_start, resets_at, used FROM budget_usage WHERE holder_kind = ? AND holder_id IN (${ids.map(() => '?').join(', ')})`, [kind, ...ids]);
    const byKey = new Map(rows.map((row) => [`${Number(row.holder_id)}:${row.period}`, row]));
    const now = this.clock.nowSeconds();
    const timeZone = this.options.get('BudgetTimeZone');
    for (const holder of holders) {
      if (!holder.windows || holder.windows.length === 0) continue;
      result.set(
        holder.id,
        holder.windows.map((window) => {
          const row = byKey.get(`${holder.id}:${window.period}`);
          if (row && Number(row.resets_at) > now) return { period: window.period, quota: window.quota, used: Number(row.used), resets_at: Number(row.resets_at) };
          // Closed (or never opened): nothing used yet; a calendar window resets at its period's end, a 5h one is opened by the next call.
          return { period: window.period, quota: window.quota, used: 0, resets_at: window.period === '5h' ? null : windowFor(window.period, now, timeZone).end };
        }),
      );
    }
    return result;
  }

  /**
   * Makes the row's window the open one: read; inserted if missing, rolled over if closed
   * (only where `resets_at <= now`, so of two instances rolling at once only the first moves
   * it), then read back. Concurrent calls of this process for one window share one roll-over.
   */
  private rollOver(kind: BudgetHolderKind, holderId: number, period: BudgetPeriod, now: number): Promise<{ start: number; end: number }> {
    const key = keyOf(kind, holderId, period);
    let rolling = this.rolling.get(key);
    if (!rolling) {
      rolling = this.readOrRoll(kind, holderId, period, now).finally(() => this.rolling.delete(key));
      this.rolling.set(key, rolling);
    }
    return rolling;
  }

  private async readOrRoll(kind: BudgetHolderKind, holderId: number, period: BudgetPeriod, now: number): Promise<{ start: number; end: number }> {
    const where = [kind, holderId, period];
    for (let attempt = 1; ; attempt++) {
      const [row] = await this.sql.select<UsageRow>('SELECT window_start, resets_at FROM budget_usage WHERE holder_kind = ? AND holder_id = ? AND period = ?', where);
      if (row && Number(row.resets_at) > now) {
        const open = { start: Number(row.window_start), end: Number(row.resets_at) };
        if (this.open.size >= OPEN_WINDOWS_KEPT) this.open.clear();
        this.open.set(keyOf(kind, holderId, period), open);
        return open;
      }
      if (attempt > ROLL_ATTEMPTS) throw new Error(`budget window ${kind} ${holderId} ${period} could not be opened`);
      const span = windowFor(period, now, this.options.get('BudgetTimeZone'));
      try {
        await this.sql.runInTransaction([
          row
            ? { sql: 'UPDATE budget_usage SET window_start = ?, resets_at = ?, used = 0 WHERE holder_kind = ? AND holder_id = ? AND period = ? AND resets_at <= ?', parameters: [span.start, span.end, ...where, now] }
            : { sql: this.insertIgnore, parameters: [...where, span.start, span.end] },
        ]);
      } catch (error) {
        // Two instances opening the same window at once: the server may roll one back; it reads the winner's row next.
        if (!isDeadlock(error)) throw error;
      }
    }
  }
}

/** Read, write, read again: enough for a window that another instance opens at the same moment. */
const ROLL_ATTEMPTS = 3;

function keyOf(kind: BudgetHolderKind, holderId: number, period: BudgetPeriod): string {
  return `${kind}:${holderId}:${period}`;
}
