import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, Repository } from 'typeorm';
import { sha256Hex } from '../../common/crypto/secret-box';
import { nowSeconds } from '../../database/columns';
import { OneTimeCodeEntity } from './entities/one-time-code.entity';

export type CodePurpose = 'email_verification' | 'password_reset' | 'oauth_state' | 'passkey_challenge';

export interface IssueOptions {
  ttlSeconds: number;
  /** A new code for the same subject is refused until this many seconds after the last one. */
  resendAfterSeconds?: number;
  /** Handed back by consume() on a match. */
  data?: string;
}

/**
 * Short-lived, single-use secrets kept in the database (so every instance sees them), stored
 * only as sha256. A code is used up by its first match; wrong guesses are counted and the
 * code is dropped after too many.
 */
@Injectable()
export class OneTimeCodesService {
  constructor(@InjectRepository(OneTimeCodeEntity) private readonly repository: Repository<OneTimeCodeEntity>) {}

  /** Stores `code` for the subject, replacing an older one; false when the last one is too recent. */
  async issue(purpose: CodePurpose, subject: string, code: string, options: IssueOptions): Promise<boolean> {
    const now = nowSeconds();
    const existing = await this.repository.findOneBy({ purpose, subject });
    if (existing && existing.expires_at > now && existing.created_at > now - (options.resendAfterSeconds ?? 0)) return false;
    if (existing) await this.repository.delete({ purpose, subject, created_at: existing.created_at });
    try {
      await this.repository.insert({ purpose, subject, code_hash: sha256Hex(code), data: options.data ?? '', attempts: 0, created_at: now, expires_at: now + options.ttlSeconds });
      return true;
    } catch {
      // Another request issued one for the same subject at the same moment: that one stands.
      return false;
    }
  }

  /** The stored data when `code` matches a live code (which is then gone), otherwise null. */
  async consume(purpose: CodePurpose, subject: string, code: string, maxAttempts: number): Promise<{ data: string } | null> {
    const row = await this.repository.findOneBy({ purpose, subject });
    if (!row) return null;
    if (row.expires_at <= nowSeconds()) {
      await this.repository.delete({ purpose, subject });
      return null;
    }
    const codeHash = sha256Hex(code);
    if (row.code_hash !== codeHash) {
      if (row.attempts + 1 >= maxAttempts) await this.repository.delete({ purpose, subject });
      else await this.repository.increment({ purpose, subject }, 'attempts', 1);
      return null;
    }
    // The conditional delete decides between two requests presenting the same code at once.
    const deleted = await this.repository.delete({ purpose, subject, code_hash: codeHash });
    return (deleted.affected ?? 0) > 0 ? { data: row.data } : null;
  }

  /** Drops a code whose delivery failed, so the user may ask again at once. */
  async discard(purpose: CodePurpose, subject: string): Promise<void> {
    await this.repository.delete({ purpose, subject });
  }

  async deleteExpired(): Promise<number> {
    const result = await this.repository.delete({ expires_at: LessThanOrEqual(nowSeconds()) });
    return result.affected ?? 0;
  }
}
