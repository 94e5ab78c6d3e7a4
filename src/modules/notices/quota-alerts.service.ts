import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { RateLimiterService } from '../../common/rate-limit/rate-limiter.service';
import { RawSql } from '../../database/raw-sql';
import { SettlementBatcherService, type Settlement } from '../billing/settlement-batcher.service';
import { MailService } from '../mail/mail.service';
import { OptionsService } from '../options/options.service';
import { OutboundHttpService } from '../outbound/outbound-http.service';
import { parseUserSetting } from '../users/self.service';

/** What a webhook receives (new-api's shape): `content` with `{{value}}` placeholders filled from `values`. */
export interface QuotaAlertPayload {
  type: 'quota_exceed';
  title: string;
  content: string;
  values: string[];
  timestamp: number;
}

/** Header carrying the hex HMAC-SHA256 of the raw body, keyed with the webhook secret. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-webhook-signature';
const ALERT_WINDOW_SECONDS = 2 * 3600;
const WEBHOOK_TIMEOUT_MS = 5_000;
/** Users looked up per query; the statements stay few enough to keep prepared. */
const USERS_PER_QUERY = 100;

interface AlertedUserRow {
  id: number;
  email: string | null;
  quota: number | string;
  setting: string | null;
}

/**
 * Warns users whose balance a settlement took below their quota_warning_threshold (or
 * QuotaRemindThreshold), by email or by their https webhook, at most once per 2 hours
 * (counted in Redis when several instances share it). It rides on the committed settlement
 * batches and never awaits a send there: a dead webhook or mail server slows nothing.
 */
@Injectable()
export class QuotaAlertsService implements OnModuleInit {
  private readonly logger = new Logger(QuotaAlertsService.name);
  /** Users warned by this instance, until when: spares the database a look at them meanwhile. */
  private readonly quietUntil = new Map<number, number>();

  constructor(
    private readonly batcher: SettlementBatcherService,
    private readonly sql: RawSql,
    private readonly options: OptionsService,
    private readonly limiter: RateLimiterService,
    private readonly mail: MailService,
    private readonly http: OutboundHttpService,
  ) {}

  onModuleInit(): void {
    this.batcher.onWritten((batch) => {
      const charged = this.chargedUsers(batch);
      if (charged.length > 0) return this.checkUsers(charged).catch((error: Error) => this.logger.warn(`quota alerts failed: ${error.message}`));
    });
  }

  private chargedUsers(batch: readonly Settlement[]): number[] {
    const now = Date.now();
    const ids = new Set<number>();
    for (const item of batch) {
      const userId = item.hold.userId;
      if (item.quota > 0 && (this.quietUntil.get(userId) ?? 0) <= now) ids.add(userId);
    }
    return [...ids];
  }

  private async checkUsers(ids: number[]): Promise<void> {
    for (let start = 0; start < ids.length; start += USERS_PER_QUERY) await this.checkSome(ids.slice(start, start + USERS_PER_QUERY));
  }

  /** Plain SQL: this runs after every settlement batch, where TypeORM's find cost more than the relay's own writes. */
  private async checkSome(ids: number[]): Promise<void> {
    const users = await this.sql.select<AlertedUserRow>(`SELECT id, email, quota, setting FROM users WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
    for (const row of users) {
      const user = { id: Number(row.id), email: row.email, quota: Number(row.quota) };
      const setting = parseUserSetting(row.setting);
      const threshold = setting.quota_warning_threshold || this.options.get('QuotaRemindThreshold');
      if (user.quota >= threshold) continue;
      this.quietUntil.set(user.id, Date.now() + ALERT_WINDOW_SECONDS * 1000);
      if (!(await this.limiter.hit(`quota-alert:${user.id}`, 1, ALERT_WINDOW_SECONDS))) continue;
      const payload = this.payload(user.quota, threshold);
      const send =
        setting.notify_type === 'webhook' && setting.webhook_url
          ? this.postWebhook(setting.webhook_url, setting.webhook_secret ?? '', payload)
          : this.email(setting.notification_email || user.email, payload);
      send.catch((error: Error) => this.logger.warn(`quota alert to user ${user.id} failed: ${error.message}`));
    }
  }

  private payload(quota: number, threshold: number): QuotaAlertPayload {
    const perUnit = this.options.get('QuotaPerUnit');
    const money = (value: number) => `$${(value / perUnit).toFixed(2)}`;
    return {
      type: 'quota_exceed',
      title: '您的额度即将用尽',
      content: '您的额度余额为 {{value}}，已低于预警阈值 {{value}}，请及时充值。',
      values: [money(quota), money(threshold)],
      timestamp: Math.floor(Date.now() / 1000),
    };
  }

  private async email(to: string | null, payload: QuotaAlertPayload): Promise<void> {
    if (!to || !this.mail.isConfigured()) return;
    let text = payload.content;
    for (const value of payload.values) text = text.replace('{{value}}', value);
    await this.mail.send({ to, subject: payload.title, text });
  }

  /**
   * The one outbound call of alerts: POST the JSON payload with the secret as a bearer
   * credential and an HMAC-SHA256 signature of the exact body bytes (compact JSON, which the
   * worker writes back the same when it sends it on). Through the worker when one is set, else
   * through the outbound guard on every redirect hop; the secret is not sent past the first host.
   */
  private async postWebhook(url: string, secret: string, payload: QuotaAlertPayload): Promise<void> {
    if (!/^https:\/\//i.test(url)) throw new Error('webhook URL must use https');
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret) {
      headers.authorization = `Bearer ${secret}`;
      headers[WEBHOOK_SIGNATURE_HEADER] = createHmac('sha256', secret).update(body).digest('hex');
    }
    const answer = await this.http.sendOwn({ url: new URL(url), method: 'POST', headers, body, headersTimeoutMs: WEBHOOK_TIMEOUT_MS, bodyTimeoutMs: WEBHOOK_TIMEOUT_MS });
    await answer.body.dump();
    if (answer.statusCode >= 300) throw new Error(`webhook answered ${answer.statusCode}`);
  }
}
