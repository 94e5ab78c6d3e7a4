import type { i18n as I18n } from 'i18next';
import type { LogEntry, LogOther } from './api';

/**
 * What a log row says, in the reader's language: rows written with a message key (see LogOther) render
 * `logs:messages.<key>` with their parameters; older rows, and keys this console does not know (a newer
 * server), show the text stored in `content`, which is Chinese.
 */
export function logRowText(log: Pick<LogEntry, 'content'>, other: LogOther, i18n: I18n): string {
  const key = typeof other.message_key === 'string' ? `logs:messages.${other.message_key}` : undefined;
  if (!key || !i18n.exists(key)) return log.content;
  const params = typeof other.message_params === 'object' && other.message_params !== null ? other.message_params : {};
  // As `replace`, so a parameter can never be read as one of t's own options (count, lng, …).
  return i18n.t(key, { replace: params });
}
