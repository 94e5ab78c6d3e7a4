import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** Usage of one user (or of everyone: user id 0) and model over one bucket of time: calls, quota and tokens. */
abstract class UsageBucketColumns {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer', default: 0 })
  user_id: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  username: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  model_name: string;

  /** Start of the bucket (unix seconds). */
  @BigIntColumn()
  created_at: number;

  @BigIntColumn()
  token_used: number;

  @BigIntColumn()
  count: number;

  @BigIntColumn()
  quota: number;
}

/** Usage by hour. */
@Entity('quota_data')
export class QuotaDataEntity extends UsageBucketColumns {}

/** The same usage by UTC day, for the dashboard's views by day and week. */
@Entity('quota_data_daily')
export class QuotaDataDailyEntity extends UsageBucketColumns {}
