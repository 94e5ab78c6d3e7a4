import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** A bearer token an identity provider provisions accounts with; only its keyed hash is kept. */
@Entity('scim_tokens')
export class ScimTokenEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  name: string;

  /** SecretBox.keyedHash of the token; never leaves this module. */
  @Column({ type: 'varchar', length: 64, default: '' })
  token_hash: string;

  @BigIntColumn()
  created_time: number;

  /** Written at most once a minute; 0 until first used. */
  @BigIntColumn()
  last_used_time: number;
}
