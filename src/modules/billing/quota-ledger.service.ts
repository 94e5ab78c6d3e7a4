import { Injectable } from '@nestjs/common';
import { GuardedUpdate, RawSql } from '../../database/raw-sql';

/** The token or the user whose quota ran short. */
export type QuotaHolder = 'token' | 'user';

export class InsufficientQuotaError extends Error {
  constructor(readonly holder: QuotaHolder) {
    super(`${holder} quota is insufficient`);
    this.name = 'InsufficientQuotaError';
  }
}

/** The one conditional UPDATE per holder, and how to give the amount back. */
const HOLD_SQL: Record<QuotaHolder, { take: string; giveBack: string }> = {
  token: {
    take: 'UPDATE tokens SET remain_quota = remain_quota - ? WHERE id = ? AND remain_quota >= ?',
    giveBack: 'UPDATE tokens SET remain_quota = remain_quota + ? WHERE id = ?',
  },
  user: {
    take: 'UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?',
    giveBack: 'UPDATE users SET quota = quota + ? WHERE id = ?',
  },
};

/** What pre-consumption took, to be settled or given back exactly. */
export interface QuotaHold {
  tokenId: number;
  /** Taken from the token's remain_quota (0 for unlimited and playground tokens). */
  fromToken: number;
  userId: number;
  fromUser: number;
}

interface PendingHold {
  hold: QuotaHold;
  amount: number;
  holders: QuotaHolder[];
  resolve(hold: QuotaHold): void;
  reject(error: unknown): void;
}

/**
 * Takes quota before an upstream call with one conditional UPDATE per holder, so concurrent
 * requests can never overdraw: the database decides, row by row.
 *
 * The holds asked for in one turn of the event loop go to the database together. They are
 * first tried as one UPDATE per token and per user for the summed amount: if every sum fits,
 * so does each hold (amounts are positive), and a turn of fifty holds costs a few statements
 * instead of a hundred. If a sum does not fit, the holds run one by one and the database
 * decides which of them get through.
 */
@Injectable()
export class QuotaLedgerService {
  private pending: PendingHold[] = [];

  constructor(private readonly sql: RawSql) {}

  /**
   * Takes `amount` from the token (unless `tokenId` is 0 or the token is unlimited) and from
   * the user, both or neither: if the user has too little, the token keeps its quota.
   */
  preConsumeQuota(tokenId: number, tokenLimited: boolean, userId: number, amount: number): Promise<QuotaHold> {
    const hold: QuotaHold = { tokenId, fromToken: 0, userId, fromUser: 0 };
    if (amount <= 0) return Promise.resolve(hold);
    const holders: QuotaHolder[] = tokenId > 0 && tokenLimited ? ['token', 'user'] : ['user'];
    return new Promise((resolve, reject) => {
      this.pending.push({ hold, amount, holders, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.applyPending());
    });
  }

  private async applyPending(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const groups = batch.map((item) => item.holders.map((holder) => guardedTake(holder, holderId(item.hold, holder), item.amount)));
      const failures = await this.sql.applyGuarded(groups, batch.length > 1 ? combinedTakes(batch) : undefined);
      batch.forEach((item, index) => {
        const failed = failures[index];
        if (failed >= 0) return item.reject(new InsufficientQuotaError(item.holders[failed]));
        if (item.holders.includes('token')) item.hold.fromToken = item.amount;
        item.hold.fromUser = item.amount;
        item.resolve(item.hold);
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }
}

function holderId(hold: QuotaHold, holder: QuotaHolder): number {
  return holder === 'token' ? hold.tokenId : hold.userId;
}

function guardedTake(holder: QuotaHolder, id: number, amount: number): GuardedUpdate {
  return { sql: HOLD_SQL[holder].take, parameters: [amount, id, amount], undo: { sql: HOLD_SQL[holder].giveBack, parameters: [amount, id] } };
}

/** The whole batch as one take per token and per user (tokens first, as each hold does). */
function combinedTakes(batch: PendingHold[]): GuardedUpdate[] {
  const sums: Record<QuotaHolder, Map<number, number>> = { token: new Map(), user: new Map() };
  for (const item of batch) {
    for (const holder of item.holders) {
      const id = holderId(item.hold, holder);
      sums[holder].set(id, (sums[holder].get(id) ?? 0) + item.amount);
    }
  }
  const takes: GuardedUpdate[] = [];
  for (const holder of ['token', 'user'] as const) for (const [id, amount] of sums[holder]) takes.push(guardedTake(holder, id, amount));
  return takes;
}
