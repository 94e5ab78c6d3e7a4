import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { AppError } from '../../common/errors/app-error';
import { OptionsService } from '../options/options.service';
import type { OptionKey } from '../options/option-definitions';

/** One message. Give `html`, `text`, or both. */
export interface MailMessage {
  to: string;
  subject: string;
  html?: string;
  text?: string;
}

/** The SMTP settings a transport is built from. */
export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  account: string;
  token: string;
  from: string;
}

const SMTP_OPTION_KEYS = new Set<OptionKey>(['SMTPServer', 'SMTPPort', 'SMTPAccount', 'SMTPFrom', 'SMTPToken', 'SMTPSSLEnabled']);
/** A dead or slow mail server answers the caller with an error within this time. */
const SMTP_TIMEOUT_MS = 15_000;

/**
 * Sends mail through the SMTP server configured in the settings. Used for verification
 * codes, password resets, quota alerts and channel notices. A failed send throws
 * `mail.send_failed` (or `mail.not_configured`) to its caller and is logged; it never
 * holds up other requests, since every send is its own async SMTP conversation.
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger(MailService.name);
  private transporter?: Transporter;
  private readonly stopWatching: () => void;

  constructor(private readonly options: OptionsService) {
    // Rebuild the transport on the next send once an admin changes any SMTP setting.
    this.stopWatching = options.onChange((key) => {
      if (SMTP_OPTION_KEYS.has(key)) this.closeTransport();
    });
  }

  onModuleDestroy(): void {
    this.stopWatching();
    this.closeTransport();
  }

  /** True when a server and a sender address are set, so sending can be attempted. */
  isConfigured(): boolean {
    const settings = this.settings();
    return settings.host !== '' && settings.from !== '';
  }

  async send(message: MailMessage): Promise<void> {
    const settings = this.settings();
    if (!this.isConfigured()) throw new AppError('mail.not_configured');
    // Nodemailer loads on the first send: a gateway that sends no mail never holds its code (issue 32).
    this.transporter ??= (await import('nodemailer')).createTransport(smtpTransportOptions(settings));
    try {
      await this.transporter.sendMail({ from: settings.from, to: message.to, subject: message.subject, html: message.html, text: message.text });
    } catch (error) {
      // Nodemailer's messages name the server's reply or the network failure, never the credentials.
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`mail "${message.subject}" to ${message.to} failed: ${reason}`);
      throw new AppError('mail.send_failed', { reason });
    }
  }

  private settings(): SmtpSettings {
    const o = this.options;
    const port = o.get('SMTPPort');
    const account = o.get('SMTPAccount');
    return {
      host: o.get('SMTPServer'),
      port,
      secure: o.get('SMTPSSLEnabled'),
      account,
      token: o.get('SMTPToken'),
      from: o.get('SMTPFrom') || account,
    };
  }

  private closeTransport(): void {
    this.transporter?.close();
    this.transporter = undefined;
  }
}

/** Port 465 is SMTP over SSL from the first byte, whatever the SSL switch says. */
export function smtpTransportOptions(settings: SmtpSettings): SMTPTransport.Options {
  return {
    host: settings.host,
    port: settings.port,
    secure: settings.port === 465 || settings.secure,
    auth: settings.account ? { user: settings.account, pass: settings.token } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  };
}
