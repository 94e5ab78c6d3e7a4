import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server';
import { createHmac } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import { UAParser } from 'ua-parser-js';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PasskeyEntity } from './entities/passkey.entity';
import { CEREMONY_TIMEOUT_MS, PasskeyCeremony, PasskeyChallenges } from './passkey-challenges';
import { toPasskeyView } from './passkey.view';
import { PasskeysRepository } from './passkeys.repository';
import type { PasskeyRegistrationOptionsView, PasskeySignInOptionsView, PasskeyView } from './passkeys.wire';
import { RelyingParty } from './relying-party';

/** Enough for a phone, a laptop, security keys and a password manager or two. */
const MAX_PASSKEYS_PER_USER = 20;
/** A passwordless sign-in has no challenge for an account yet. */
const NO_USER = 0;

/**
 * @simplewebauthn/server (with the X.509 and ASN.1 code under it) loads on the first passkey
 * ceremony: a gateway where nobody uses passkeys never holds it (issue 32).
 */
const webauthn = () => import('@simplewebauthn/server');

/**
 * Passkeys (WebAuthn): registration and management by a signed-in account, and the checks of
 * a passwordless sign-in or a second step. Every ceremony spends a stored single-use challenge
 * first, then the signature is checked against the stored public key, and the authenticator's
 * counter must move forward.
 */
@Injectable()
export class PasskeysService {
  private readonly logger = new Logger(PasskeysService.name);

  constructor(
    private readonly passkeys: PasskeysRepository,
    private readonly challenges: PasskeyChallenges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(userId: number): Promise<PasskeyView[]> {
    return (await this.passkeys.listByUser(userId)).map(toPasskeyView);
  }

  async hasPasskey(userId: number): Promise<boolean> {
    return (await this.passkeys.countByUser(userId)) > 0;
  }

  /** Options for `navigator.credentials.create()`; the account's passkeys are excluded so one authenticator is not registered twice. */
  async registrationOptions(user: AuthenticatedUser, relyingParty: RelyingParty): Promise<PasskeyRegistrationOptionsView> {
    const existing = await this.passkeys.listByUser(user.id);
    if (existing.length >= MAX_PASSKEYS_PER_USER) throw new AppError('passkey.limit_reached', { max: MAX_PASSKEYS_PER_USER });
    const { generateRegistrationOptions } = await webauthn();
    const options = await generateRegistrationOptions({
      rpName: relyingParty.name,
      rpID: relyingParty.id,
      userName: user.username,
      userDisplayName: user.username,
      userID: this.userHandle(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credential_id, transports: transportsOf(passkey) })),
      // Discoverable where the authenticator can, so the passkey signs in without a username.
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      timeout: CEREMONY_TIMEOUT_MS,
    });
    await this.challenges.issue(options.challenge, 'registration', user.id, relyingParty.origin);
    return options;
  }

  /** Checks the browser's registration answer against its challenge and stores the new credential. */
  async register(user: AuthenticatedUser, response: Record<string, unknown>, name: string | undefined, userAgent: string): Promise<PasskeyView> {
    const expectations = await this.challenges.consume(response, 'registration', user.id);
    if ((await this.passkeys.countByUser(user.id)) >= MAX_PASSKEYS_PER_USER) throw new AppError('passkey.limit_reached', { max: MAX_PASSKEYS_PER_USER });
    const { verifyRegistrationResponse } = await webauthn();
    const { isoBase64URL } = await import('@simplewebauthn/server/helpers');
    // The account is signed in already; sign-in without a password asks for verification instead.
    const verification = await this.verified(() =>
      verifyRegistrationResponse({ response: response as unknown as RegistrationResponseJSON, ...expectations, requireUserVerification: false }),
    );
    if (!verification.verified) throw new AppError('passkey.verification_failed');
    const { credential, credentialBackedUp } = verification.registrationInfo;
    if (await this.passkeys.getByCredentialId(credential.id)) throw new AppError('passkey.already_registered');
    const newPasskey = {
      user_id: user.id,
      name: name?.trim() || defaultName(userAgent),
      credential_id: credential.id,
      public_key: isoBase64URL.fromBuffer(credential.publicKey),
      user_handle: isoBase64URL.fromBuffer(this.userHandle(user.id)),
      counter: credential.counter,
      transports: (credential.transports ?? []).join(','),
      backed_up: credentialBackedUp,
    };
    try {
      const saved = await this.passkeys.insert(newPasskey);
      this.logger.log(`user ${user.id} registered passkey ${saved.id}`);
      return toPasskeyView(saved);
    } catch (error) {
      // The unique index on the credential decided between two registrations of the same one.
      if (error instanceof QueryFailedError && (await this.passkeys.getByCredentialId(credential.id))) throw new AppError('passkey.already_registered');
      throw error;
    }
  }

  async rename(userId: number, id: number, name: string): Promise<void> {
    if (!(await this.passkeys.rename(userId, id, name.trim()))) throw new AppError('passkey.not_found');
  }

  async remove(userId: number, id: number): Promise<void> {
    if (!(await this.passkeys.remove(userId, id))) throw new AppError('passkey.not_found');
    this.logger.log(`user ${userId} deleted passkey ${id}`);
  }

  /** Options for a sign-in with a passkey alone: no account named, the authenticator offers its discoverable passkeys. */
  async signInOptions(relyingParty: RelyingParty): Promise<PasskeySignInOptionsView> {
    const { generateAuthenticationOptions } = await webauthn();
    const options = await generateAuthenticationOptions({ rpID: relyingParty.id, userVerification: 'required', timeout: CEREMONY_TIMEOUT_MS });
    await this.challenges.issue(options.challenge, 'sign_in', NO_USER, relyingParty.origin);
    return options;
  }

  /** Options for the second step of a sign-in: only this account's passkeys are offered. */
  async secondFactorOptions(userId: number, relyingParty: RelyingParty): Promise<PasskeySignInOptionsView> {
    const passkeys = await this.passkeys.listByUser(userId);
    if (passkeys.length === 0) throw new AppError('passkey.none_registered');
    const { generateAuthenticationOptions } = await webauthn();
    const options = await generateAuthenticationOptions({
      rpID: relyingParty.id,
      allowCredentials: passkeys.map((passkey) => ({ id: passkey.credential_id, transports: transportsOf(passkey) })),
      // The password was the first factor; possession of the passkey is the second.
      userVerification: 'discouraged',
      timeout: CEREMONY_TIMEOUT_MS,
    });
    await this.challenges.issue(options.challenge, 'second_factor', userId, relyingParty.origin);
    return options;
  }

  /**
   * A passwordless sign-in: the account whose passkey signed the challenge. The authenticator
   * must have verified the user (PIN or biometrics), so the passkey stands for two factors.
   */
  async verifySignIn(response: Record<string, unknown>): Promise<number> {
    const passkey = await this.verifyAssertion(response, 'sign_in', NO_USER);
    return passkey.user_id;
  }

  /** The second step of a sign-in whose first step proved `userId`: one of that account's passkeys must sign. */
  async verifySecondFactor(userId: number, response: Record<string, unknown>): Promise<void> {
    await this.verifyAssertion(response, 'second_factor', userId);
  }

  private async verifyAssertion(response: Record<string, unknown>, ceremony: PasskeyCeremony, userId: number): Promise<PasskeyEntity> {
    const expectations = await this.challenges.consume(response, ceremony, userId);
    const passkey = typeof response.id === 'string' ? await this.passkeys.getByCredentialId(response.id) : null;
    if (!passkey || (ceremony === 'second_factor' && passkey.user_id !== userId)) throw new AppError('passkey.unknown');
    // A discoverable passkey names its account too; it must be the one it was registered for.
    const userHandle = (response.response as { userHandle?: unknown }).userHandle;
    if (userHandle !== undefined && userHandle !== passkey.user_handle) throw new AppError('passkey.unknown');
    const { verifyAuthenticationResponse } = await webauthn();
    const { isoBase64URL } = await import('@simplewebauthn/server/helpers');
    const verification = await this.verified(() =>
      verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        ...expectations,
        credential: { id: passkey.credential_id, publicKey: isoBase64URL.toBuffer(passkey.public_key), counter: passkey.counter, transports: transportsOf(passkey) },
        requireUserVerification: ceremony === 'sign_in',
      }),
    );
    if (!verification.verified) throw new AppError('passkey.verification_failed');
    const { newCounter, credentialBackedUp } = verification.authenticationInfo;
    if (!(await this.passkeys.claimUse(passkey, newCounter, credentialBackedUp))) throw new AppError('passkey.verification_failed');
    return passkey;
  }

  /** Runs a @simplewebauthn check; what it throws (a bad signature, origin, counter or shape) is a refusal, not a fault. */
  private async verified<T>(check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      this.logger.log(`passkey refused: ${error instanceof Error ? error.message : String(error)}`);
      throw new AppError('passkey.verification_failed');
    }
  }

  /** The account's WebAuthn user handle: stable, opaque, and not the row id (authenticators may show or sync it). */
  private userHandle(userId: number): Uint8Array<ArrayBuffer> {
    return new Uint8Array(createHmac('sha256', this.config.sessionSecret).update(`passkey-user:${userId}`).digest());
  }
}

function transportsOf(passkey: PasskeyEntity): AuthenticatorTransport[] | undefined {
  return passkey.transports ? (passkey.transports.split(',') as AuthenticatorTransport[]) : undefined;
}

/** "Chrome · macOS" from the registering browser, until the owner names it. */
function defaultName(userAgent: string): string {
  const parsed = UAParser(userAgent);
  return [parsed.browser.name, parsed.os.name].filter(Boolean).join(' · ').slice(0, 64) || 'Passkey';
}
