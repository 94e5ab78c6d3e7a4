import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomAlphanumeric } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { MailService } from '../mail/mail.service';
import { escapeHtml, paragraphsToHtml } from '../mail/mail-template';
import { OptionsService } from '../options/options.service';
import { SessionsService } from '../sessions/sessions.service';
import { UsersService } from '../users/users.service';
import { normaliseEmail } from './email-rules';
import { RESEND_AFTER_SECONDS } from './email-verification.service';
import { OneTimeCodesService } from './one-time-codes.service';

const LINK_TTL_MINUTES = 15;
const MAX_WRONG_ATTEMPTS = 5;
const NEW_PASSWORD_LENGTH = 12;

/**
 * Password reset by mailed link. Asking gives the same answer whether or not the address
 * belongs to an account; the link works once, expires, and ends every session of the account.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger(PasswordResetService.name);

  constructor(
    private readonly codes: OneTimeCodesService,
    private readonly mail: MailService,
    private readonly options: OptionsService,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async requestReset(rawEmail: string): Promise<void> {
    if (!this.mail.isConfigured()) throw new AppError('mail.not_configured');
    const email = normaliseEmail(rawEmail);
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const token = randomAlphanumeric(32);
    // Inside the resend wait the earlier link stays valid and nothing is sent, silently alike.
    if (!(await this.codes.issue('password_reset', email, token, { ttlSeconds: LINK_TTL_MINUTES * 60, resendAfterSeconds: RESEND_AFTER_SECONDS }))) return;
    const link = `${this.serverAddress()}/user/reset?email=${encodeURIComponent(email)}&token=${token}`;
    const systemName = this.options.get('SystemName');
    try {
      await this.mail.send({
        to: email,
        subject: `${systemName} 密码重置 / password reset`,
        text: `重置密码 / Reset your password: ${link}\n${LINK_TTL_MINUTES} 分钟内有效 / valid for ${LINK_TTL_MINUTES} minutes.`,
        html: [
          paragraphsToHtml([`您好，您正在进行 ${systemName} 密码重置。 / You asked to reset your password for ${systemName}.`]),
          `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
          paragraphsToHtml([`链接 ${LINK_TTL_MINUTES} 分钟内有效，如果不是本人操作，请忽略。 / The link is valid for ${LINK_TTL_MINUTES} minutes; ignore this mail if you did not ask for it.`]),
        ].join('\n'),
      });
    } catch {
      // Answering with the failure would tell who has an account; MailService has logged it.
      await this.codes.discard('password_reset', email);
    }
  }

  /** Sets a random new password, signs the account out everywhere and returns the password once. */
  async confirmReset(rawEmail: string, token: string): Promise<string> {
    const email = normaliseEmail(rawEmail);
    const matched = token ? await this.codes.consume('password_reset', email, token, MAX_WRONG_ATTEMPTS) : null;
    const user = matched ? await this.users.findByEmail(email) : null;
    if (!user) throw new AppError('reset.link_invalid');
    const password = randomAlphanumeric(NEW_PASSWORD_LENGTH);
    await this.users.setPasswordHash(user.id, await this.users.hashPassword(password));
    await this.sessions.destroyAllForUser(user.id);
    this.logger.log(`password of user ${user.id} reset by mailed link`);
    return password;
  }

  /** Links point at the configured public address; a request's Host header is not trusted for mail. */
  private serverAddress(): string {
    return this.options.get('ServerAddress') || `http://localhost:${this.config.port}`;
  }
}
