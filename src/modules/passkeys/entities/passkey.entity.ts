import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** One registered WebAuthn credential of an account. Holds only public material: the private key never leaves the authenticator. */
@Entity('passkeys')
export class PasskeyEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer', default: 0 })
  user_id: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  name: string;

  /** base64url credential id, as the browser names it in assertions. */
  @Column({ type: 'text' })
  credential_id: string;

  /** sha256 hex of credential_id: the unique, indexed lookup key. */
  @Column({ type: 'varchar', length: 64 })
  credential_hash: string;

  /** base64url COSE public key. */
  @Column({ type: 'text' })
  public_key: string;

  /** base64url WebAuthn user handle given at registration. */
  @Column({ type: 'varchar', length: 128, default: '' })
  user_handle: string;

  /** The last signature counter seen; assertions must exceed it unless the authenticator keeps none (0). */
  @BigIntColumn()
  counter: number;

  /** Comma-separated transports the authenticator reported (usb, nfc, ble, internal, hybrid). */
  @Column({ type: 'varchar', length: 255, default: '' })
  transports: string;

  /** A synced passkey (iCloud Keychain, Google Password Manager) rather than one bound to a device. */
  @Column({ type: 'boolean', default: false })
  backed_up: boolean;

  @BigIntColumn()
  created_time: number;

  @BigIntColumn()
  last_used_time: number;
}
