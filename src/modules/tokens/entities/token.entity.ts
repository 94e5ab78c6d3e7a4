import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

export const TOKEN_STATUS_ENABLED = 1;
export const TOKEN_STATUS_DISABLED = 2;
export const TOKEN_STATUS_EXPIRED = 3;
export const TOKEN_STATUS_EXHAUSTED = 4;

/**
 * An API key of a user: the 48 characters after `sk-`, stored encrypted in `key` (SecretBox,
 * so the console can reveal it) and looked up by `key_hash` (SecretBox.keyedHash).
 */
@Entity('tokens')
export class TokenEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  user_id: number;

  @Column({ type: 'varchar', length: 191 })
  key: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  key_hash: string | null;

  @Column({ type: 'integer', default: TOKEN_STATUS_ENABLED })
  status: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  name: string;

  @BigIntColumn()
  created_time: number;

  @BigIntColumn()
  accessed_time: number;

  /** Unix seconds; -1 never expires. */
  @BigIntColumn({ default: -1 })
  expired_time: number;

  @BigIntColumn()
  remain_quota: number;

  @Column({ type: 'boolean', default: false })
  unlimited_quota: boolean;

  @Column({ type: 'boolean', default: false })
  model_limits_enabled: boolean;

  /** Comma-separated model names. */
  @Column({ type: 'text', nullable: true })
  model_limits: string | null;

  /** IPs or CIDRs, one per line. */
  @Column({ type: 'text', nullable: true })
  allow_ips: string | null;

  @BigIntColumn()
  used_quota: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  group: string;
  /** JSON text of the budget windows ([{period, quota}]); null when none is set. */
  @Column({ type: 'text', nullable: true })
  budget_windows: string | null;

  /** Requests per minute (sliding); 0 means no limit. */
  @Column({ type: 'integer', default: 0 })
  rpm_limit: number;

  /** Prompt plus completion tokens per minute (sliding); 0 means no limit. */
  @Column({ type: 'integer', default: 0 })
  tpm_limit: number;

  /** The token's own model fallback chain, comma-separated, in order; null: the ModelFallbacks setting applies. */
  @Column({ type: 'text', nullable: true })
  model_fallbacks: string | null;
  /** Whether the response cache answers this token's repeated deterministic calls (chat at temperature 0, embeddings, rerank). */
  @Column({ type: 'boolean', default: false })
  response_cache: boolean;

  /** With the cache on (by the token or its group): chats sampled above temperature 0 (or at the provider's default) are cached too. */
  @Column({ type: 'boolean', default: false })
  response_cache_nondeterministic: boolean;
}
