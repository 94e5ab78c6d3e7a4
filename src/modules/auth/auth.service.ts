import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { OptionsService } from '../options/options.service';
import { SetupService } from '../system/setup.service';
import { ROLE_ROOT, USER_STATUS_ENABLED, UserEntity } from '../users/entities/user.entity';
import { UserManagementService } from '../users/user-management.service';
import { UsersService } from '../users/users.service';
import { EmailVerificationService } from '../verification/email-verification.service';
import { toUserView } from '../users/user.view';
import { UserView } from '../users/user.wire';
import { RegisterDto } from './dto/auth.dto';
import { SessionClient, SessionsService } from '../sessions/sessions.service';
import { PendingSignIn } from '../two-factor/sign-in-challenge';
import { TwoFactorService } from '../two-factor/two-factor.service';

/** Passwords anyone would try first; the console asks the root account to change them. */
const WELL_KNOWN_DEFAULT_PASSWORDS = new Set(['123456', '12345678']);

/** The user a finished sign-in answers with, and what the console must ask of them next. */
export type SignedInUserView = UserView & {
  require_password_change: boolean;
  /** The TwoFactorRequirement setting covers this account and it has no second factor yet: the console opens enrolment. */
  require_2fa_setup: boolean;
};

/** A sign-in either started a session or, for an account with a second factor, waits for its code. */
export type SignInStep = { kind: 'signed_in'; user: SignedInUserView; cookie: string } | { kind: 'second_factor'; pending: PendingSignIn };

/** The browser signing in: its previous session (ended on success) and what the session list shows. */
export interface SignInClient extends SessionClient {
  previousSessionId?: string;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly options: OptionsService,
    private readonly setup: SetupService,
    private readonly accounts: UserManagementService,
    private readonly emailVerification: EmailVerificationService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  /** Checks the password, then starts a fresh session or asks for the second factor. */
  async login(username: string, password: string, client: SignInClient): Promise<SignInStep> {
    await this.setup.assertInitialised();
    if (!this.options.get('PasswordLoginEnabled')) throw new AppError('user.password_login_disabled');
    const user = await this.users.verifyCredentials(username.trim(), password);
    if (!user || user.status !== USER_STATUS_ENABLED) throw new AppError('user.invalid_credentials');
    const requirePasswordChange = user.role >= ROLE_ROOT && WELL_KNOWN_DEFAULT_PASSWORDS.has(password);
    return this.afterFirstFactor(user, { userId: user.id, requirePasswordChange }, client);
  }

  /**
   * The first factor (password or third party) is proven: an account with a second factor
   * gets a challenge, any other a session, ended the browser's previous one (id rotation).
   */
  async afterFirstFactor(user: UserEntity, pending: PendingSignIn, client: SignInClient): Promise<SignInStep> {
    if (await this.twoFactor.isEnabled(user.id)) return { kind: 'second_factor', pending };
    return this.finishSignIn(user, pending, client);
  }

  /** The second step: the code for a pending sign-in, then a session. */
  async completeSecondFactor(pending: PendingSignIn, code: string, client: SignInClient & { ip: string }): Promise<SignInStep> {
    await this.twoFactor.assertCode(pending.userId, code, client.ip);
    const user = await this.users.findById(pending.userId);
    if (!user || user.status !== USER_STATUS_ENABLED) throw new AppError('user.invalid_credentials');
    return this.finishSignIn(user, pending, client);
  }

  /**
   * The user of a session started by a browser redirect (SAML's ACS), as a sign-in answers it:
   * the console's landing page asks for it, having had no answer of its own.
   */
  async signedInView(userId: number): Promise<SignedInUserView> {
    const user = await this.users.findById(userId);
    if (!user) throw new AppError('user.not_found');
    return this.viewOf(user, false);
  }

  /** Every factor the sign-in needs is proven (a passkey with user verification counts for both): a session, and what the console asks next. */
  async finishSignIn(user: UserEntity, pending: PendingSignIn, client: SignInClient): Promise<SignInStep> {
    const cookie = await this.startSession(user.id, client);
    return { kind: 'signed_in', user: await this.viewOf(user, pending.requirePasswordChange), cookie };
  }

  private async viewOf(user: UserEntity, requirePasswordChange: boolean): Promise<SignedInUserView> {
    return { ...toUserView(user, 'owner'), require_password_change: requirePasswordChange, require_2fa_setup: await this.twoFactor.enrolmentRequired(user) };
  }

  async logout(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.sessions.destroy(sessionId);
  }

  /** New account, welcome quota and the inviter's reward land together or not at all. */
  async register(dto: RegisterDto): Promise<void> {
    await this.setup.assertInitialised();
    if (!this.options.get('RegisterEnabled')) throw new AppError('user.register_disabled');
    if (!this.options.get('PasswordRegisterEnabled')) throw new AppError('user.password_register_disabled');
    if (dto.password2 !== undefined && dto.password2 !== dto.password) throw new AppError('user.password_mismatch');
    let email = '';
    if (this.options.get('EmailVerificationEnabled')) {
      if (!dto.email || !dto.verification_code) throw new AppError('user.email_verification_required');
      email = await this.emailVerification.checkCode(dto.email, dto.verification_code);
      if (await this.users.emailTaken(email)) throw new AppError('email.taken');
    }
    const username = dto.username.trim();
    const passwordHash = await this.users.hashPassword(dto.password);
    await this.accounts.createAccount({ username, passwordHash, email }, dto.aff_code, async (manager) => {
      if (await this.users.usernameTaken(username, manager)) throw new AppError('user.username_taken');
    });
  }

  /** Starts a session for a user who proved who they are, ending the browser's previous one. */
  private async startSession(userId: number, client: SignInClient): Promise<string> {
    if (client.previousSessionId) await this.sessions.destroy(client.previousSessionId);
    return this.sessions.create(userId, client);
  }
}
