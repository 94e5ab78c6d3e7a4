import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintAsNumber, BigIntColumn } from '../../../database/columns';

export const CHANNEL_STATUS_ENABLED = 1;
export const CHANNEL_STATUS_MANUALLY_DISABLED = 2;
export const CHANNEL_STATUS_AUTO_DISABLED = 3;

/** An upstream account. `key` is encrypted at rest (SecretBox) and never leaves the server. */
@Entity('channels')
export class ChannelEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer', default: 1 })
  type: number;

  @Column({ type: 'text' })
  key: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  name: string;

  @Column({ type: 'integer', default: CHANNEL_STATUS_ENABLED })
  status: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  openai_organization: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  test_model: string;

  @Column({ type: 'varchar', length: 512, default: '' })
  base_url: string;

  /** Provider-specific extra (API version for Azure, Spark version, …). */
  @Column({ type: 'text', nullable: true })
  other: string | null;

  /** Comma-separated model names. */
  @Column({ type: 'text' })
  models: string;

  /** Comma-separated group names. */
  @Column({ type: 'varchar', length: 255, default: 'default' })
  group: string;

  @Column({ type: 'text', nullable: true })
  model_mapping: string | null;

  @Column({ type: 'text', nullable: true })
  status_code_mapping: string | null;

  @Column({ type: 'text', nullable: true })
  setting: string | null;

  @Column({ type: 'text', nullable: true })
  param_override: string | null;

  /** JSON: status_reason and status_time of the last automatic status change. */
  @Column({ type: 'text', nullable: true })
  other_info: string | null;

  /** JSON (ChannelKeyInfo): a multi-key channel's mode and the status of each of its keys; null when all are enabled and drawn at random. */
  @Column({ type: 'text', nullable: true })
  channel_info: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  tag: string | null;

  @BigIntColumn()
  priority: number;

  @Column({ type: 'integer', default: 0 })
  weight: number;

  @Column({ type: 'integer', default: 1 })
  auto_ban: number;

  @Column({ type: 'integer', default: 0 })
  max_input_tokens: number;

  @Column({ type: 'integer', default: 0 })
  response_time: number;

  @Column({ type: 'double precision', default: 0, transformer: bigintAsNumber })
  balance: number;

  @BigIntColumn()
  balance_updated_time: number;

  @BigIntColumn()
  used_quota: number;

  @BigIntColumn()
  created_time: number;

  @BigIntColumn()
  test_time: number;

  @BigIntColumn()
  expired_time: number;
}
