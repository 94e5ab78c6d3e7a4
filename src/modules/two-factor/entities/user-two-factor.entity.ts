import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** An account's TOTP enrolment. Kept out of `users` so no user query, view or export can carry the secret. */
@Entity('user_two_factor')
export class UserTwoFactorEntity {
  @PrimaryColumn({ type: 'integer' })
  user_id: number;

  /** SecretBox ciphertext of the base32 secret. */
  @Column({ type: 'varchar', length: 255, default: '' })
  secret: string;

  /** When the first code confirmed enrolment; 0 while it is pending. */
  @BigIntColumn()
  enabled_time: number;

  /** The last accepted TOTP time step; codes of this step or earlier are refused as replays. */
  @BigIntColumn()
  last_used_step: number;

  @BigIntColumn()
  created_time: number;
}
