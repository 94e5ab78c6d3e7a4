import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** What a remembered SAML message id is: an AuthnRequest we sent, or an assertion already used to sign in. */
export type SamlMessageKind = 'request' | 'assertion';

/**
 * A SAML message id every instance must see: a pending AuthnRequest (until the IdP answers or it
 * times out) or a used assertion (until its NotOnOrAfter, after which it is refused anyway).
 */
@Entity('saml_message_ids')
export class SamlMessageIdEntity {
  /** sha256 of `kind:id`, so the IdP's ids of any length fit a fixed-size key. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id_hash: string;

  @Column({ type: 'varchar', length: 16 })
  kind: SamlMessageKind;

  @BigIntColumn()
  created_at: number;

  @BigIntColumn()
  expires_at: number;
}
