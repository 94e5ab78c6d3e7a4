import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;
/** COSE key parameters (RFC 9052): kty EC2, alg ES256, curve P-256, x, y. */
const COSE_EC2 = 2;
const COSE_ES256 = -7;
const COSE_P256 = 1;

interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

/** What a test may change about one assertion to make it wrong on purpose (the authenticator's own counter moves on regardless). */
export interface AssertionOverrides {
  origin?: string;
  challenge?: string;
  counter?: number;
  userVerified?: boolean;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => isoBase64URL.fromBuffer(Uint8Array.from(data));
const counterBytes = (counter: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
};

/**
 * A software WebAuthn authenticator for server tests: real P-256 keys, real CBOR and real
 * ES256 signatures over authenticator data and the client data hash, as a platform
 * authenticator with attestation "none" produces them. Each sign-in counts up, like a
 * device-bound key.
 */
export class SoftAuthenticator {
  private readonly credentials = new Map<string, StoredCredential>();

  /** Answers `navigator.credentials.create()` for these options, as the browser would at `origin`. */
  register(options: PublicKeyCredentialCreationOptionsJSON, origin: string): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, COSE_EC2],
        [3, COSE_ES256],
        [-1, COSE_P256],
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
    const id = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authenticatorData = Buffer.concat([
      sha256(options.rp.id ?? new URL(origin).hostname),
      Buffer.from([FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL]),
      counterBytes(0),
      Buffer.alloc(16),
      idLength,
      id,
      Buffer.from(cosePublicKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', Uint8Array.from(authenticatorData)],
      ]),
    );
    this.credentials.set(b64url(id), { id, privateKey, userHandle: options.user.id, counter: 0 });
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: { clientDataJSON: b64url(Buffer.from(clientDataJSON)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** Answers `navigator.credentials.get()` with the credential `credentialId` (default: the first this authenticator made). */
  assert(options: PublicKeyCredentialRequestOptionsJSON, origin: string, credentialId?: string, overrides: AssertionOverrides = {}): AuthenticationResponseJSON {
    const credential = credentialId ? this.credentials.get(credentialId) : this.credentials.values().next().value;
    if (!credential) throw new Error('the soft authenticator holds no such credential');
    const counter = overrides.counter ?? ++credential.counter;
    const flags = FLAG_USER_PRESENT | (overrides.userVerified === false ? 0 : FLAG_USER_VERIFIED);
    const authenticatorData = Buffer.concat([sha256(options.rpId ?? new URL(origin).hostname), Buffer.from([flags]), counterBytes(counter)]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: overrides.challenge ?? options.challenge, origin: overrides.origin ?? origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature), userHandle: credential.userHandle },
      clientExtensionResults: {},
    };
  }
}
