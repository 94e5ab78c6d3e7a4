import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

export const SUBSCRIPTION_STATUS_ACTIVE = 1;
export const SUBSCRIPTION_STATUS_CANCELLED = 2;

/**
 * What a user bought: a copy of the plan's allowance at purchase (a later edit of the plan does
 * not change it; a renewal refreshes nothing but the period and the total), its period and
 * `used`, which only the ledger moves (holds and settlements, like a balance).
 */
@Entity('subscriptions')
export class SubscriptionEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  user_id: number;

  @Column({ type: 'integer' })
  plan_id: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  plan_name: string;

  @Column({ type: 'integer', default: SUBSCRIPTION_STATUS_ACTIVE })
  status: number;

  @BigIntColumn()
  starts_at: number;

  @BigIntColumn()
  expires_at: number;

  @BigIntColumn()
  total_quota: number;

  @BigIntColumn()
  used: number;

  @Column({ type: 'text', nullable: true })
  budget_windows: string | null;

  @Column({ type: 'text', nullable: true })
  models: string | null;

  @Column({ type: 'varchar', length: 64, default: '' })
  group: string;

  @Column({ type: 'boolean', default: false })
  allow_wallet_fallback: boolean;

  @BigIntColumn()
  created_at: number;
}
