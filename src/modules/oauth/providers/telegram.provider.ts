import { Injectable } from '@nestjs/common';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../common/errors/app-error';
import { nowSeconds } from '../../../database/columns';
import { OptionsService } from '../../options/options.service';
import { ExternalIdentity } from './external-identity';

/** The fields the Telegram login widget signs; anything else in the query (lang) is not part of it. */
const SIGNED_FIELDS = ['auth_date', 'first_name', 'id', 'last_name', 'photo_url', 'username'] as const;
/** A widget answer older than this is refused, so a leaked login link stops working. */
const MAX_AGE_SECONDS = 3600;

export type TelegramLoginFields = Partial<Record<(typeof SIGNED_FIELDS)[number] | 'hash', string>>;

/** Telegram login widget: the hash is HMAC-SHA256 of the sorted fields, keyed by sha256(bot token). */
@Injectable()
export class TelegramProvider {
  constructor(private readonly options: OptionsService) {}

  enabled(): boolean {
    return this.options.get('TelegramOAuthEnabled');
  }

  verify(fields: TelegramLoginFields): ExternalIdentity {
    const checkString = SIGNED_FIELDS.filter((name) => fields[name] !== undefined)
      .map((name) => `${name}=${fields[name]}`)
      .join('\n');
    const key = createHash('sha256').update(this.options.get('TelegramBotToken')).digest();
    const expected = createHmac('sha256', key).update(checkString).digest();
    const given = Buffer.from(fields.hash ?? '', 'hex');
    if (!fields.id || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('oauth.telegram_invalid');
    const authDate = Number(fields.auth_date);
    if (!Number.isInteger(authDate) || nowSeconds() - authDate > MAX_AGE_SECONDS) throw new AppError('oauth.telegram_expired');
    const displayName = [fields.first_name, fields.last_name].filter(Boolean).join(' ') || fields.username || '';
    return { column: 'telegram_id', id: fields.id, displayName, email: '' };
  }
}
