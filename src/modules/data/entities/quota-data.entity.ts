import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** Usage of one user and model in one hour: calls, quota and tokens. */
@Entity('quota_data')
export class QuotaDataEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer', default: 0 })
  user_id: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  username: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  model_name: string;

  /** Start of the hour (unix seconds). */
  @BigIntColumn()
  created_at: number;

  @BigIntColumn()
  token_used: number;

  @BigIntColumn()
  count: number;

  @BigIntColumn()
  quota: number;
}
