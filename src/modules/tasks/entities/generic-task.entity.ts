import { Column, Entity } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';
import { ChargedTaskColumns } from './charged-task.columns';

/** One asynchronous job of another platform (Suno), billed once at submit. Times are Unix seconds. */
@Entity('tasks')
export class GenericTaskEntity extends ChargedTaskColumns {
  /** Unix seconds. */
  @BigIntColumn()
  updated_at: number;

  /** The upstream's task id, which clients use. */
  @Column({ type: 'varchar', length: 191, default: '' })
  task_id: string;

  @Column({ type: 'varchar', length: 30, default: '' })
  platform: string;

  @Column({ type: 'varchar', length: 20, default: '' })
  progress: string;

  /** JSON: the client's submit body. */
  @Column({ type: 'text', nullable: true })
  properties: string | null;

  /** JSON: the upstream's latest result (clips, lyrics). */
  @Column({ type: 'text', nullable: true })
  data: string | null;
}
