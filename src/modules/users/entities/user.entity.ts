import { Column, DeleteDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

export const ROLE_USER = 1;
export const ROLE_ADMIN = 10;
export const ROLE_ROOT = 100;

export const USER_STATUS_ENABLED = 1;
export const USER_STATUS_DISABLED = 2;

/** Property names follow the wire and the columns (snake_case), so a response shape is a plain pick. */
@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 64 })
  username: string;

  /** bcrypt hash; never leaves the users service. */
  @Column({ type: 'varchar', length: 255, default: '' })
  password: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  display_name: string;

  @Column({ type: 'integer', default: ROLE_USER })
  role: number;

  @Column({ type: 'integer', default: USER_STATUS_ENABLED })
  status: number;

  @Column({ type: 'varchar', length: 128, default: '' })
  email: string;

  @Column({ type: 'varchar', length: 128, default: '' })
  github_id: string;

  @Column({ type: 'varchar', length: 128, default: '' })
  oidc_id: string;

  @Column({ type: 'varchar', length: 128, default: '' })
  wechat_id: string;

  @Column({ type: 'varchar', length: 128, default: '' })
  telegram_id: string;

  @Column({ type: 'varchar', length: 128, default: '' })
  linux_do_id: string;

  /** The NameID the SAML IdP gave this account at its first SAML sign-in. */
  @Column({ type: 'varchar', length: 191, default: '' })
  saml_id: string;

  /** sha256 of the system access token; the token itself is shown once. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  access_token: string | null;

  @BigIntColumn()
  quota: number;

  @BigIntColumn()
  used_quota: number;

  @Column({ type: 'integer', default: 0 })
  request_count: number;

  @Column({ type: 'varchar', length: 64, default: 'default' })
  group: string;

  @Column({ type: 'varchar', length: 32 })
  aff_code: string;

  @Column({ type: 'integer', default: 0 })
  aff_count: number;

  @BigIntColumn()
  aff_quota: number;

  @BigIntColumn()
  aff_history_quota: number;

  @Column({ type: 'integer', default: 0 })
  inviter_id: number;

  /** JSON text of the user's own settings (notifications and the like). */
  @Column({ type: 'text', nullable: true })
  setting: string | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  remark: string;

  @BigIntColumn()
  created_time: number;

  @DeleteDateColumn({ nullable: true })
  deleted_at: Date | null;
  /** JSON text of the budget windows ([{period, quota}]); null when none is set. */
  @Column({ type: 'text', nullable: true })
  budget_windows: string | null;

  /** Requests per minute (sliding); 0 means no limit. */
  @Column({ type: 'integer', default: 0 })
  rpm_limit: number;

  /** Prompt plus completion tokens per minute (sliding); 0 means no limit. */
  @Column({ type: 'integer', default: 0 })
  tpm_limit: number;

  /** The identity provider's id of an account it provisioned over SCIM (`externalId`); '' otherwise. */
  @Column({ type: 'varchar', length: 191, default: '' })
  scim_external_id: string;
}
