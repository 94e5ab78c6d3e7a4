import { Injectable } from '@nestjs/common';
import { RawSql } from '../../database/raw-sql';

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

/**
 * Takes quota before an upstream call with one conditional UPDATE per holder, so concurrent
 * requests can never overdraw: the database decides, row by row.
 */
@Injectable()
export class QuotaLedgerService {
  constructor(private readonly sql: RawSql) {}

  /**
   * Takes `amount` from the token (unless `tokenId` is 0 or the token is unlimited) and from
   * the user, both or neither: if the user has too little, the token keeps its quota.
   */
  async preConsumeQuota(tokenId: number, tokenLimited: boolean, userId: number, amount: number): Promise<QuotaHold> {
    const hold: QuotaHold = { tokenId, fromToken: 0, userId, fromUser: 0 };
    if (amount <= 0) return hold;
    const takeFromToken = tokenId > 0 && tokenLimited;
    const holders: QuotaHolder[] = takeFromToken ? ['token', 'user'] : ['user'];
    const failed = await this.sql.applyGuarded(
      holders.map((holder) => {
        const id = holder === 'token' ? tokenId : userId;
        return { sql: HOLD_SQL[holder].take, parameters: [amount, id, amount], undo: { sql: HOLD_SQL[holder].giveBack, parameters: [amount, id] } };
      }),
    );
    if (failed >= 0) throw new InsufficientQuotaError(holders[failed]);
    if (takeFromToken) hold.fromToken = amount;
    hold.fromUser = amount;
    return hold;
  }
}
