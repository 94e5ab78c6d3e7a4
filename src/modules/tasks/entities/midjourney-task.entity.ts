import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** One Midjourney-Proxy job (a drawing task), billed once at submit. */
@Entity('midjourneys')
export class MidjourneyTaskEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** Submit result: 1 submitted, 21 waiting, 22 duplicate. */
  @Column({ type: 'integer', default: 0 })
  code: number;

  @Column({ type: 'integer', default: 0 })
  user_id: number;

  /** The token that paid; 0 never happens for relay submits but keeps the column total. */
  @Column({ type: 'integer', default: 0 })
  token_id: number;

  /** What the hold took from the token (0 for unlimited tokens), given back on a refund. */
  @BigIntColumn()
  token_quota: number;

  @Column({ type: 'varchar', length: 40, default: '' })
  action: string;

  /** The upstream's task id, which clients use. */
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

  /** Unix milliseconds, as Midjourney-Proxy reports them. */
  @BigIntColumn()
  submit_time: number;

  @BigIntColumn()
  start_time: number;

  @BigIntColumn()
  finish_time: number;

  @Column({ type: 'text', nullable: true })
  image_url: string | null;

  @Column({ type: 'varchar', length: 20, default: '' })
  status: string;

  @Column({ type: 'varchar', length: 30, default: '' })
  progress: string;

  @Column({ type: 'text', nullable: true })
  fail_reason: string | null;

  @Column({ type: 'integer', default: 0 })
  channel_id: number;

  @BigIntColumn()
  quota: number;

  /** JSON list of the buttons the upstream offers on the result. */
  @Column({ type: 'text', nullable: true })
  buttons: string | null;

  /** JSON object of the upstream's extra properties. */
  @Column({ type: 'text', nullable: true })
  properties: string | null;

  /** Where the client asked to be told of changes (kept only while MjNotifyEnabled is on). */
  @Column({ type: 'text', nullable: true })
  notify_hook: string | null;

  /** Unix seconds. */
  @BigIntColumn()
  created_at: number;
}
