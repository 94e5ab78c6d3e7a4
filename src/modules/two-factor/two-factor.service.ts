import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { Repository } from 'typeorm';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { SECRET_BOX, SecretBox } from '../../common/crypto/secret-box';
import { AppError, TooManyRequestsError } from '../../common/errors/app-error';
import { RateLimiterService } from '../../common/rate-limit/rate-limiter.service';
import { nowSeconds } from '../../database/columns';
import { AuditService } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import { paragraphsToHtml } from '../mail/mail-template';
import { OptionsService } from '../options/options.service';
import { SessionsService } from '../sessions/sessions.service';
import { ROLE_ADMIN, ROLE_ROOT } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';
import { TwoFactorRecoveryCodeEntity } from './entities/two-factor-recovery-code.entity';
import { UserTwoFactorEntity } from './entities/user-two-factor.entity';
import { TotpClock } from './totp-clock';
import type { RecoveryCodesView, TwoFactorSetupView, TwoFactorStatusView } from './two-factor.wire';

const RECOVERY_CODE_COUNT = 10;
/** One period either side of now: clocks on phones drift, and a code typed at a period's end still counts. */
const TOTP_TOLERANCE_SECONDS = 30;
/** Wrong codes allowed per account and address, and per account from anywhere, in ATTEMPT_WINDOW_SECONDS. */
const FAILURES_PER_USER_AND_IP = 5;
const FAILURES_PER_USER = 20;
const ATTEMPT_WINDOW_SECONDS = 300;

/** Whether the TwoFactorRequirement setting ('off', 'admins' or 'everyone') covers an account of this role. */
export function requirementCovers(requirement: string, role: number): boolean {
  return requirement === 'everyone' || (requirement === 'admins' && role >= ROLE_ADMIN);
}

/** Recovery codes are compared without case, spaces or dashes, as people retype them. */
function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^0-9a-z]/g, '');
}

/**
 * TOTP (RFC 6238) second factor: enrolment, code checks at sign-in and for changes, recovery
 * codes, and root's reset. The secret is stored encrypted and leaves the server only in the
 * setup answer, before the first code confirms it; recovery codes are stored as keyed hashes.
 */
@Injectable()
export class TwoFactorService {
  private readonly logger = new Logger(TwoFactorService.name);

  constructor(
    @InjectRepository(UserTwoFactorEntity) private readonly enrolments: Repository<UserTwoFactorEntity>,
    @InjectRepository(TwoFactorRecoveryCodeEntity) private readonly recoveryCodes: Repository<TwoFactorRecoveryCodeEntity>,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly clock: TotpClock,
    private readonly options: OptionsService,
    private readonly rateLimiter: RateLimiterService,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
  ) {}

  /** True when the account has confirmed a TOTP enrolment, so sign-in asks for a code. */
  async isEnabled(userId: number): Promise<boolean> {
    const row = await this.enrolments.findOneBy({ user_id: userId });
    return row !== null && row.enabled_time > 0;
  }

  /** True when the setting requires a second factor of this account and it has none yet. */
  async enrolmentRequired(user: { id: number; role: number }): Promise<boolean> {
    if (!requirementCovers(this.options.get('TwoFactorRequirement'), user.role)) return false;
    return !(await this.isEnabled(user.id));
  }

  async status(user: AuthenticatedUser): Promise<TwoFactorStatusView> {
    const enabled = await this.isEnabled(user.id);
    const left = enabled ? await this.recoveryCodes.countBy({ user_id: user.id, used_time: 0 }) : 0;
    return { enabled, recovery_codes_left: left, required: requirementCovers(this.options.get('TwoFactorRequirement'), user.role) };
  }

  /** A fresh secret awaiting its first code; an unconfirmed earlier one is replaced. */
  async beginSetup(user: AuthenticatedUser): Promise<TwoFactorSetupView> {
    if (await this.isEnabled(user.id)) throw new AppError('two_factor.already_enabled');
    // otplib loads on first use (here and in acceptTotp): a gateway where nobody enrols never holds it (issue 32).
    const { generateSecret, generateURI } = await import('otplib');
    const secret = generateSecret();
    await this.enrolments.upsert(
      { user_id: user.id, secret: this.box.encrypt(secret), enabled_time: 0, last_used_step: 0, created_time: nowSeconds() },
      ['user_id'],
    );
    const otpauthUri = generateURI({ issuer: this.options.get('SystemName'), label: user.username, secret });
    return { secret, otpauth_uri: otpauthUri };
  }

  /** The first code proves the authenticator holds the secret; enrolment is then on and the recovery codes are issued. */
  async confirmSetup(user: AuthenticatedUser, code: string, ip: string): Promise<RecoveryCodesView> {
    const row = await this.enrolments.findOneBy({ user_id: user.id });
    if (!row) throw new AppError('two_factor.setup_not_started');
    if (row.enabled_time > 0) throw new AppError('two_factor.already_enabled');
    await this.assertAttemptsLeft(user.id, ip);
    if (!(await this.acceptTotp(row, code))) throw await this.countFailure(user.id, ip);
    await this.enrolments.update({ user_id: user.id }, { enabled_time: nowSeconds() });
    this.logger.log(`user ${user.id} enabled two-factor sign-in`);
    return { recovery_codes: await this.issueRecoveryCodes(user.id) };
  }

  /** Turns 2FA off with a current code; refused while the setting requires it of this account. */
  async disable(user: AuthenticatedUser, code: string, ip: string): Promise<void> {
    if (requirementCovers(this.options.get('TwoFactorRequirement'), user.role)) throw new AppError('two_factor.required_cannot_disable');
    await this.assertCode(user.id, code, ip);
    await this.remove(user.id);
    this.logger.log(`user ${user.id} disabled two-factor sign-in`);
  }

  /** New recovery codes for a current code; the old ones stop working. */
  async regenerateRecoveryCodes(user: AuthenticatedUser, code: string, ip: string): Promise<RecoveryCodesView> {
    await this.assertCode(user.id, code, ip);
    return { recovery_codes: await this.issueRecoveryCodes(user.id) };
  }

  /**
   * Checks the second step of a sign-in (or a change to 2FA): a TOTP code or an unused
   * recovery code. Wrong codes are counted per account and address, and per account.
   */
  async assertCode(userId: number, code: string, ip: string): Promise<void> {
    await this.assertAttemptsLeft(userId, ip);
    const row = await this.enrolments.findOneBy({ user_id: userId });
    if (!row || row.enabled_time === 0) throw new AppError('two_factor.not_enabled');
    if (await this.acceptTotp(row, code)) return;
    if (await this.spendRecoveryCode(userId, code)) {
      this.logger.log(`user ${userId} used a recovery code`);
      return;
    }
    throw await this.countFailure(userId, ip);
  }

  /** Root removes an account's second factor (a lost phone): recorded, the account signed out, its owner mailed. */
  async resetByAdmin(actor: AuthenticatedUser, userId: number): Promise<void> {
    const target = await this.users.findById(userId);
    if (!target) throw new AppError('user.not_found');
    if (target.role >= ROLE_ROOT && target.id !== actor.id) throw new AppError('user.cannot_manage_same_or_higher');
    const hadFactor = await this.enrolments.existsBy({ user_id: userId });
    if (!hadFactor) throw new AppError('two_factor.not_enabled');
    await this.enrolments.manager.transaction(async (manager) => {
      await manager.delete(UserTwoFactorEntity, { user_id: userId });
      await manager.delete(TwoFactorRecoveryCodeEntity, { user_id: userId });
      await this.audit.record({ id: actor.id, username: actor.username, ip: actor.ip }, { entity: 'user', entityId: userId, action: 'reset_2fa' }, manager);
    });
    await this.sessions.destroyAllForUser(userId);
    if (target.email && this.mail.isConfigured()) await this.mailReset(target.email);
  }

  private async mailReset(email: string): Promise<void> {
    const systemName = this.options.get('SystemName');
    const text = [
      `管理员已重置您在 ${systemName} 的两步验证，请登录后重新设置。如果不是您要求的，请立即联系管理员。`,
      `An administrator reset the two-factor sign-in of your ${systemName} account; set it up again after signing in. If you did not ask for this, contact the administrator now.`,
    ];
    try {
      await this.mail.send({ to: email, subject: `${systemName} 两步验证已重置 / two-factor sign-in reset`, text: text.join('\n'), html: paragraphsToHtml(text) });
    } catch {
      // The reset stands without the notice; MailService has logged the failure.
    }
  }

  private async remove(userId: number): Promise<void> {
    await this.enrolments.manager.transaction(async (manager) => {
      await manager.delete(UserTwoFactorEntity, { user_id: userId });
      await manager.delete(TwoFactorRecoveryCodeEntity, { user_id: userId });
    });
  }

  /** Refuses every attempt, right or wrong, once the account has too many recent wrong codes. */
  private async assertAttemptsLeft(userId: number, ip: string): Promise<void> {
    const limited = (await this.rateLimiter.reached(`2fa:${userId}:${ip}`, FAILURES_PER_USER_AND_IP)) || (await this.rateLimiter.reached(`2fa:${userId}`, FAILURES_PER_USER));
    if (limited) throw new TooManyRequestsError();
  }

  private async countFailure(userId: number, ip: string): Promise<AppError> {
    await this.rateLimiter.hit(`2fa:${userId}:${ip}`, FAILURES_PER_USER_AND_IP, ATTEMPT_WINDOW_SECONDS);
    await this.rateLimiter.hit(`2fa:${userId}`, FAILURES_PER_USER, ATTEMPT_WINDOW_SECONDS);
    return new AppError('two_factor.code_invalid');
  }

  /**
   * A valid code of a time step later than the last one accepted; the step is claimed with a
   * conditional update, so two requests racing with the same code cannot both pass.
   */
  private async acceptTotp(row: UserTwoFactorEntity, code: string): Promise<boolean> {
    const token = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(token)) return false;
    const { verify } = await import('otplib');
    const result = await verify({
      secret: this.box.decrypt(row.secret),
      token,
      epoch: this.clock.nowSeconds(),
      epochTolerance: TOTP_TOLERANCE_SECONDS,
      afterTimeStep: row.last_used_step,
    });
    if (!result.valid || !('timeStep' in result)) return false;
    const claimed = await this.enrolments
      .createQueryBuilder()
      .update()
      .set({ last_used_step: result.timeStep })
      .where('user_id = :userId AND last_used_step < :step', { userId: row.user_id, step: result.timeStep })
      .execute();
    return (claimed.affected ?? 0) > 0;
  }

  private async spendRecoveryCode(userId: number, code: string): Promise<boolean> {
    const normalised = normaliseRecoveryCode(code);
    if (normalised.length !== 10) return false;
    const spent = await this.recoveryCodes.update({ user_id: userId, code_hash: this.box.keyedHash(normalised), used_time: 0 }, { used_time: nowSeconds() });
    return (spent.affected ?? 0) > 0;
  }

  /** Replaces the account's recovery codes with fresh ones, returned in their display form (xxxxx-xxxxx). */
  private async issueRecoveryCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => randomBytes(5).toString('hex'));
    await this.recoveryCodes.manager.transaction(async (manager) => {
      await manager.delete(TwoFactorRecoveryCodeEntity, { user_id: userId });
      await manager.insert(
        TwoFactorRecoveryCodeEntity,
        codes.map((code) => ({ user_id: userId, code_hash: this.box.keyedHash(code), used_time: 0 })),
      );
    });
    return codes.map((code) => `${code.slice(0, 5)}-${code.slice(5)}`);
  }
}
