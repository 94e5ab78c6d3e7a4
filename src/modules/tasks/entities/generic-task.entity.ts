import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** One asynchronous job of another platform (Suno), billed once at submit. */
@Entity('tasks')
export class GenericTaskEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** Unix seconds. */
  @BigIntColumn()
  created_at: number;

  @BigIntColumn()
  updated_at: number;

  /** The upstream's task id, which clients use. */
  @Column({ type: 'varchar', length: 191, default: '' })
  task_id: string;

  @Column({ type: 'varchar', length: 30, default: '' })
  platform: string;

  @Column({ type: 'integer', default: 0 })
  user_id: number;

  @Column({ type: 'integer', default: 0 })
  token_id: number;

  /** What the hold took from the token (0 for unlimited tokens), given back on a refund. */
  @BigIntColumn()
  token_quota: number;

  @Column({ type: 'integer', default: 0 })
  channel_id: number;

  @BigIntColumn()
  quota: number;

  @Column({ type: 'varchar', length: 40, default: '' })
  action: string;

  @Column({ type: 'varchar', length: 20, default: '' })
  status: string;

  @Column({ type: 'text', nullable: true })
  fail_reason: string | null;

  /** Unix seconds. */
  @BigIntColumn()
  submit_time: number;

  @BigIntColumn()
  start_time: number;

  @BigIntColumn()
  finish_time: number;

  @Column({ type: 'varchar', length: 20, default: '' })
  progress: string;

  /** JSON: the client's submit body. */
  @Column({ type: 'text', nullable: true })
  properties: string | null;

  /** JSON: the upstream's latest result (clips, lyrics). */
  @Column({ type: 'text', nullable: true })
  data: string | null;
}
