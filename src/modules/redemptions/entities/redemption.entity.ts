import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

export const REDEMPTION_STATUS_UNUSED = 1;
export const REDEMPTION_STATUS_DISABLED = 2;
export const REDEMPTION_STATUS_USED = 3;

/** A code worth `quota`, redeemed at most once (status 1 → 3 in the crediting transaction). */
@Entity('redemptions')
export class RedemptionEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** The administrator who created it. */
  @Column({ type: 'integer', default: 0 })
  user_id: number;

  /** 32 characters from a CSPRNG; unique. */
  @Column({ type: 'varchar', length: 32 })
  key: string;

  @Column({ type: 'integer', default: REDEMPTION_STATUS_UNUSED })
  status: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  name: string;

  @BigIntColumn({ default: 100 })
  quota: number;

  @BigIntColumn()
  created_time: number;

  @BigIntColumn()
  redeemed_time: number;

  /** A subscription plan the code grants instead of quota (quota is then 0); 0 for a quota code. */
  @Column({ type: 'integer', default: 0 })
  plan_id: number;

  /** 0 until redeemed. */
  @Column({ type: 'integer', default: 0 })
  used_user_id: number;
}
