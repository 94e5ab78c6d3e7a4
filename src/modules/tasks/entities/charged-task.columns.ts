import { Column, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/**
 * The columns every task table has (midjourneys, tasks): who submitted it, what it was
 * charged and from where, and how far it got. Each entity adds its platform's own columns.
 */
export abstract class ChargedTaskColumns {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** Unix seconds. */
  @BigIntColumn()
  created_at: number;

  @Column({ type: 'integer', default: 0 })
  user_id: number;

  /** The token that paid (0 when none did). */
  @Column({ type: 'integer', default: 0 })
  token_id: number;

  /** What the hold took from the token (0 for unlimited tokens), given back on a refund. */
  @BigIntColumn()
  token_quota: number;

  /** The subscription the charge was drawn from (0: the wallet), which a refund goes back to. */
  @Column({ type: 'integer', default: 0 })
  subscription_id: number;

  @Column({ type: 'integer', default: 0 })
  channel_id: number;

  /** What the submit was charged, refunded when the task fails. */
  @BigIntColumn()
  quota: number;

  @Column({ type: 'varchar', length: 40, default: '' })
  action: string;

  @Column({ type: 'varchar', length: 20, default: '' })
  status: string;

  @Column({ type: 'text', nullable: true })
  fail_reason: string | null;

  /** In the unit the platform reports (see each entity). */
  @BigIntColumn()
  submit_time: number;

  @BigIntColumn()
  start_time: number;

  @BigIntColumn()
  finish_time: number;
}
