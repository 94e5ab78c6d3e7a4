import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { MailService } from '../mail/mail.service';
import { paragraphsToHtml } from '../mail/mail-template';
import { OptionsService } from '../options/options.service';
import { UsersService } from '../users/users.service';
import { assertEmailAllowed, EmailRules, normaliseEmail } from './email-rules';
import { OneTimeCodesService } from './one-time-codes.service';

const CODE_TTL_MINUTES = 10;
/** The console counts down the same 30 seconds before offering to resend. */
export const RESEND_AFTER_SECONDS = 30;
const MAX_WRONG_ATTEMPTS = 5;

/** Mails a six-digit code to an address and checks it at registration or when binding the address. */
@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly codes: OneTimeCodesService,
    private readonly mail: MailService,
    private readonly options: OptionsService,
    private readonly users: UsersService,
  ) {}

  async sendCode(rawEmail: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    assertEmailAllowed(email, this.rules());
    if (await this.users.emailTaken(email)) throw new AppError('email.taken');
    if (!this.mail.isConfigured()) throw new AppError('mail.not_configured');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const issued = await this.codes.issue('email_verification', email, code, { ttlSeconds: CODE_TTL_MINUTES * 60, resendAfterSeconds: RESEND_AFTER_SECONDS });
    if (!issued) throw new AppError('email.resend_too_soon', { seconds: RESEND_AFTER_SECONDS });
    const systemName = this.options.get('SystemName');
    try {
      await this.mail.send({
        to: email,
        subject: `${systemName} 邮箱验证 / email verification`,
        text: `您的验证码为 / Your verification code: ${code}\n${CODE_TTL_MINUTES} 分钟内有效 / valid for ${CODE_TTL_MINUTES} minutes.`,
        html: paragraphsToHtml([
          `您好，您正在进行 ${systemName} 邮箱验证。 / You are verifying your email address for ${systemName}.`,
          `您的验证码为 / Your verification code: ${code}`,
          `验证码 ${CODE_TTL_MINUTES} 分钟内有效，如果不是本人操作，请忽略。 / The code is valid for ${CODE_TTL_MINUTES} minutes; ignore this mail if you did not ask for it.`,
        ]),
      });
    } catch (error) {
      await this.codes.discard('email_verification', email);
      throw error;
    }
  }

  /** The normalised address when the code is right; throws otherwise (and counts the miss). */
  async checkCode(rawEmail: string, code: string): Promise<string> {
    const email = normaliseEmail(rawEmail);
    const matched = code ? await this.codes.consume('email_verification', email, code.trim(), MAX_WRONG_ATTEMPTS) : null;
    if (!matched) throw new AppError('email.code_invalid');
    return email;
  }

  private rules(): EmailRules {
    return {
      domainRestriction: this.options.get('EmailDomainRestrictionEnabled'),
      domainWhitelist: this.options.get('EmailDomainWhitelist').map((domain) => domain.toLowerCase()),
      aliasRestriction: this.options.get('EmailAliasRestrictionEnabled'),
    };
  }
}
