import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** One single-use recovery code, stored as a keyed hash; `used_time` > 0 once spent. */
@Entity('two_factor_recovery_codes')
export class TwoFactorRecoveryCodeEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer', default: 0 })
  user_id: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  code_hash: string;

  @BigIntColumn()
  used_time: number;
}
