import type { PasskeyEntity } from './entities/passkey.entity';
import type { PasskeyView } from './passkeys.wire';

/** The listed fields only: the credential id, public key and user handle stay on the server. */
export function toPasskeyView(passkey: PasskeyEntity): PasskeyView {
  return {
    id: passkey.id,
    name: passkey.name,
    created_time: passkey.created_time,
    last_used_time: passkey.last_used_time,
    backed_up: passkey.backed_up,
  };
}
