import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

export const LOG_TYPE_UNKNOWN = 0;
export const LOG_TYPE_TOPUP = 1;
export const LOG_TYPE_CONSUME = 2;
export const LOG_TYPE_MANAGE = 3;
export const LOG_TYPE_SYSTEM = 4;

/** One usage, top-up, management or system event. Consume rows carry every quota unit charged. */
@Entity('logs')
export class LogEntity {
  /**
   * Unique by itself (AUTO_INCREMENT, or a sequence on PostgreSQL). On MySQL and PostgreSQL the
   * table's primary key is (id, created_at), since a partitioned table's keys must hold the
   * partition key (see the LogPartitions migration); rows are only ever inserted and deleted
   * in bulk, never saved by id, so the entity keeps id alone.
   */
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer', default: 0 })
  user_id: number;

  @BigIntColumn()
  created_at: number;

  @Column({ type: 'integer', default: LOG_TYPE_UNKNOWN })
  type: number;

  @Column({ type: 'text', nullable: true })
  content: string | null;

  @Column({ type: 'varchar', length: 64, default: '' })
  username: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  token_name: string;

  @Column({ type: 'integer', default: 0 })
  token_id: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  model_name: string;

  @BigIntColumn()
  quota: number;

  @Column({ type: 'integer', default: 0 })
  prompt_tokens: number;

  @Column({ type: 'integer', default: 0 })
  completion_tokens: number;

  /** Seconds the request took. */
  @Column({ type: 'integer', default: 0 })
  use_time: number;

  @Column({ type: 'boolean', default: false })
  is_stream: boolean;

  @Column({ type: 'integer', default: 0 })
  channel_id: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  channel_name: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  group: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  ip: string;

  /** The subscription a consume row drew from (also in `other.subscription_id`); 0 for the wallet. */
  @Column({ type: 'integer', default: 0 })
  subscription_id: number;

  /** JSON: frt, ratios, model price, admin_info.use_channel, … */
  @Column({ type: 'text', nullable: true })
  other: string | null;
}
