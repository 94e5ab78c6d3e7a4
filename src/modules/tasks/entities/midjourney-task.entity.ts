import { Column, Entity } from 'typeorm';
import { ChargedTaskColumns } from './charged-task.columns';

/** One Midjourney-Proxy job (a drawing task), billed once at submit. Times are Unix milliseconds, as Midjourney-Proxy reports them. */
@Entity('midjourneys')
export class MidjourneyTaskEntity extends ChargedTaskColumns {
  /** Submit result: 1 submitted, 21 waiting, 22 duplicate. */
  @Column({ type: 'integer', default: 0 })
  code: number;

  /** The upstream's task id, which clients use ('' for an upload, whose answer is a list of links). */
  @Column({ type: 'varchar', length: 191, default: '' })
  mj_id: string;

  @Column({ type: 'text', nullable: true })
  prompt: string | null;

  @Column({ type: 'text', nullable: true })
  prompt_en: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  state: string;

  @Column({ type: 'text', nullable: true })
  image_url: string | null;

  @Column({ type: 'varchar', length: 30, default: '' })
  progress: string;

  /** JSON list of the buttons the upstream offers on the result. */
  @Column({ type: 'text', nullable: true })
  buttons: string | null;

  /** JSON object of the upstream's extra properties. */
  @Column({ type: 'text', nullable: true })
  properties: string | null;

  /** Where the client asked to be told of changes (kept only while MjNotifyEnabled is on). */
  @Column({ type: 'text', nullable: true })
  notify_hook: string | null;
}
