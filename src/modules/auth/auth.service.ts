import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { OptionsService } from '../options/options.service';
import { SetupService } from '../system/setup.service';
import { ROLE_ROOT, USER_STATUS_ENABLED } from '../users/entities/user.entity';
import { UserManagementService } from '../users/user-management.service';
import { UsersService } from '../users/users.service';
import { EmailVerificationService } from '../verification/email-verification.service';
import { toUserView } from '../users/user.view';
import { UserView } from '../users/user.wire';
import { RegisterDto } from './dto/auth.dto';
import { SessionsService } from '../sessions/sessions.service';

/** Passwords anyone would try first; the console asks the root account to change them. */
const WELL_KNOWN_DEFAULT_PASSWORDS = new Set(['123456', '12345678']);

export interface LoginResult {
  user: UserView & { require_password_change: boolean };
  cookie: string;
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
  ) {}

  /** Signs in and starts a fresh session; any session the browser had is ended (id rotation). */
  async login(username: string, password: string, previousSessionId?: string): Promise<LoginResult> {
    await this.setup.assertInitialised();
    if (!this.options.get('PasswordLoginEnabled')) throw new AppError('user.password_login_disabled');
    const user = await this.users.verifyCredentials(username.trim(), password);
    if (!user || user.status !== USER_STATUS_ENABLED) throw new AppError('user.invalid_credentials');
    const cookie = await this.startSession(user.id, previousSessionId);
    const requirePasswordChange = user.role >= ROLE_ROOT && WELL_KNOWN_DEFAULT_PASSWORDS.has(password);
    return { user: { ...toUserView(user, 'owner'), require_password_change: requirePasswordChange }, cookie };
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
  async startSession(userId: number, previousSessionId?: string): Promise<string> {
    if (previousSessionId) await this.sessions.destroy(previousSessionId);
    return this.sessions.create(userId);
  }
}
