import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { translate } from '../../common/i18n/catalogue';
import { Transactions } from '../../database/transactions';
import { QuotaLedgerService } from '../billing/quota-ledger.service';
import { OptionsService } from '../options/options.service';
import { SetupService } from '../system/setup.service';
import { ROLE_ROOT, USER_STATUS_ENABLED } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';
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
    private readonly transactions: Transactions,
    private readonly ledger: QuotaLedgerService,
  ) {}

  /** Signs in and starts a fresh session; any session the browser had is ended (id rotation). */
  async login(username: string, password: string, previousSessionId?: string): Promise<LoginResult> {
    await this.setup.assertInitialised();
    if (!this.options.get('PasswordLoginEnabled')) throw new AppError('user.password_login_disabled');
    const user = await this.users.verifyCredentials(username.trim(), password);
    if (!user || user.status !== USER_STATUS_ENABLED) throw new AppError('user.invalid_credentials');
    if (previousSessionId) await this.sessions.destroy(previousSessionId);
    const cookie = await this.sessions.create(user.id);
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
    if (this.options.get('EmailVerificationEnabled')) {
      // Verification codes arrive with the mail issue; until then a code can never be valid.
      if (!dto.email || !dto.verification_code) throw new AppError('user.email_verification_required');
      throw new AppError('user.email_verification_unavailable');
    }
    const username = dto.username.trim();
    const affCode = dto.aff_code?.trim();
    const inviter = affCode ? await this.users.findByAffCode(affCode) : null;
    const quotaForNewUser = this.options.get('QuotaForNewUser');
    const quotaForInvitee = inviter ? this.options.get('QuotaForInvitee') : 0;
    const quotaForInviter = inviter ? this.options.get('QuotaForInviter') : 0;

    const passwordHash = await this.users.hashPassword(dto.password);
    await this.transactions.run(async (manager) => {
      if (await this.users.usernameTaken(username, manager)) throw new AppError('user.username_taken');
      const user = await this.users.create({ username, passwordHash, inviter_id: inviter?.id ?? 0, email: dto.email?.trim() ?? '' }, manager);
      const credit = (reason: 'new_user' | 'invite_reward', quota: number, content: string) =>
        this.ledger.applyDelta({ userId: user.id, username, reason, quota, content }, manager);
      if (quotaForNewUser > 0) await credit('new_user', quotaForNewUser, translate('log.new_user_quota', 'zh', { quota: quotaForNewUser }));
      if (quotaForInvitee > 0) await credit('invite_reward', quotaForInvitee, translate('log.invitee_reward', 'zh', { quota: quotaForInvitee }));
      if (inviter) {
        await this.users.countInvitation(inviter.id, manager);
        if (quotaForInviter > 0) {
          const content = translate('log.inviter_reward', 'zh', { invitee: username, quota: quotaForInviter });
          await this.ledger.applyDelta({ userId: inviter.id, username: inviter.username, reason: 'invite_reward', quota: 0, affQuota: quotaForInviter, content }, manager);
        }
      }
    });
  }
}
