import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** A plan administrators sell: an allowance for a period (see SubscriptionEntity for what a user holds). */
@Entity('plans')
export class PlanEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  /** The price in hundredths of a unit: exact, where a float column would not be. */
  @BigIntColumn()
  price_cents: number;

  @Column({ type: 'integer', default: 30 })
  duration_days: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  group: string;

  @BigIntColumn()
  total_quota: number;

  /** JSON `[{period, quota}]`, or null. */
  @Column({ type: 'text', nullable: true })
  budget_windows: string | null;

  /** JSON list of model names, or null for every model. */
  @Column({ type: 'text', nullable: true })
  models: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'boolean', default: false })
  allow_wallet_fallback: boolean;

  @BigIntColumn()
  created_at: number;

  @BigIntColumn()
  updated_at: number;
}
