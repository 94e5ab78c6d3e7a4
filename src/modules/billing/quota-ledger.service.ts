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
   * the user. If the user has too little, what the token gave is put back before throwing.
   */
  async preConsumeQuota(tokenId: number, tokenLimited: boolean, userId: number, amount: number): Promise<QuotaHold> {
    const hold: QuotaHold = { tokenId, fromToken: 0, userId, fromUser: 0 };
    if (amount <= 0) return hold;
    const takeFromToken = tokenId > 0 && tokenLimited;
    if (takeFromToken) {
      const taken = await this.run('UPDATE tokens SET remain_quota = remain_quota - ? WHERE id = ? AND remain_quota >= ?', [amount, tokenId, amount]);
      if (!taken) throw new InsufficientQuotaError('token');
      hold.fromToken = amount;
    }
    const taken = await this.run('UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?', [amount, userId, amount]);
    if (!taken) {
      if (takeFromToken) await this.run('UPDATE tokens SET remain_quota = remain_quota + ? WHERE id = ?', [amount, tokenId]);
      throw new InsufficientQuotaError('user');
    }
    hold.fromUser = amount;
    return hold;
  }

  /** Runs one UPDATE and says whether it changed a row. */
  private async run(sql: string, parameters: unknown[]): Promise<boolean> {
    return (await this.sql.run(sql, parameters)) > 0;
  }
}
