import { translate } from '../../common/i18n/catalogue';
import type { LogMessageKey, LogMessageParams } from './log.wire';

/** What a log row says, as a message the console renders in the reader's language. */
export interface LogText {
  key: LogMessageKey;
  params: LogMessageParams;
}

export function logText(key: LogMessageKey, params: LogMessageParams): LogText {
  return { key, params };
}

/**
 * The row's stored `content`: the text in Chinese, the product's default language, as every row
 * before message keys had it. API clients that show `content` as it is, and anyone reading the
 * table directly, keep getting the text they always did.
 */
export function logContent(text: LogText): string {
  return translate(`log.${text.key}`, 'zh', text.params);
}

/** The text's members of `other`, for a row whose `other` is written out as JSON by hand (the relay's consume rows). */
export function logTextJsonMembers(text: LogText): string {
  return `"message_key":${JSON.stringify(text.key)},"message_params":${JSON.stringify(text.params)}`;
}

/** The `content` and `other` columns of a new log row: the text in both forms, beside the rest of `other` (see LogOther). */
export function logTextColumns(text: LogText, other: Record<string, unknown> = {}): { content: string; other: string } {
  return { content: logContent(text), other: JSON.stringify({ ...other, message_key: text.key, message_params: text.params }) };
}
