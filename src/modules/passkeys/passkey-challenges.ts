import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { OneTimeCodesService } from '../verification/one-time-codes.service';
import { relyingPartyIdOf } from './relying-party';

/** Registration by a signed-in user, a passwordless sign-in, or the second step of one. */
export type PasskeyCeremony = 'registration' | 'sign_in' | 'second_factor';

/** Time for the browser's passkey prompt, and a little more for the challenge behind it. */
export const CEREMONY_TIMEOUT_MS = 2 * 60 * 1000;
const CHALLENGE_TTL_SECONDS = 3 * 60;
/** generateChallenge() makes 32 bytes, 43 base64url characters; anything far longer is not ours. */
const MAX_CHALLENGE_LENGTH = 128;

/** What the browser must have signed, in @simplewebauthn/server's words: the spent challenge, and the origin and RP ID it was issued for. */
export interface CeremonyExpectations {
  expectedChallenge: string;
  expectedOrigin: string;
  expectedRPID: string;
}

/**
 * WebAuthn challenges, single-use and short-lived, kept in the one-time codes table so any
 * instance can finish a ceremony another began. Keyed by the challenge itself and bound to
 * the ceremony and account it was issued for: the first presentation uses it up, right or wrong.
 */
@Injectable()
export class PasskeyChallenges {
  constructor(private readonly codes: OneTimeCodesService) {}

  async issue(challenge: string, ceremony: PasskeyCeremony, userId: number, origin: string): Promise<void> {
    await this.codes.issue('passkey_challenge', challenge, binding(ceremony, userId), { ttlSeconds: CHALLENGE_TTL_SECONDS, data: origin });
  }

  /** Uses up the challenge the browser signed; refuses one never issued, expired, already used or issued for another ceremony. */
  async consume(credential: Record<string, unknown>, ceremony: PasskeyCeremony, userId: number): Promise<CeremonyExpectations> {
    const challenge = await signedChallenge(credential);
    const matched = challenge ? await this.codes.consume('passkey_challenge', challenge, binding(ceremony, userId), 1) : null;
    if (!challenge || !matched) throw new AppError('passkey.challenge_invalid');
    return { expectedChallenge: challenge, expectedOrigin: matched.data, expectedRPID: relyingPartyIdOf(matched.data) };
  }
}

function binding(ceremony: PasskeyCeremony, userId: number): string {
  return `${ceremony}:${userId}`;
}

/** The challenge inside the response's clientDataJSON, or null when the response is not shaped like one. */
async function signedChallenge(credential: Record<string, unknown>): Promise<string | null> {
  const inner = credential.response;
  if (typeof inner !== 'object' || inner === null) return null;
  const clientDataJSON = (inner as Record<string, unknown>).clientDataJSON;
  if (typeof clientDataJSON !== 'string') return null;
  // Loaded on the first ceremony, like the rest of @simplewebauthn (see PasskeysService).
  const { decodeClientDataJSON } = await import('@simplewebauthn/server/helpers');
  try {
    const { challenge } = decodeClientDataJSON(clientDataJSON);
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= MAX_CHALLENGE_LENGTH ? challenge : null;
  } catch {
    return null;
  }
}
