import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** One live code per purpose and subject (an email address, an OAuth state). Only its sha256 is kept. */
@Entity('one_time_codes')
export class OneTimeCodeEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  purpose: string;

  @PrimaryColumn({ type: 'varchar', length: 191 })
  subject: string;

  @Column({ type: 'varchar', length: 64 })
  code_hash: string;

  /** What the issuer wants back on a match (the OAuth state's referral code). */
  @Column({ type: 'varchar', length: 255, default: '' })
  data: string;

  /** Wrong guesses so far. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @BigIntColumn()
  created_at: number;

  @BigIntColumn()
  expires_at: number;
}
