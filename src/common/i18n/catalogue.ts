import { commonMessages } from './messages/common.messages';
import { usersMessages } from './messages/users.messages';
import { optionsMessages } from './messages/options.messages';
import { relayMessages } from './messages/relay.messages';
import { managementMessages } from './messages/management.messages';
import { signinMessages } from './messages/signin.messages';
import { moneyMessages } from './messages/money.messages';
import { outboundMessages } from './messages/outbound.messages';
import { monitoringMessages } from './messages/monitoring.messages';
import { identityMessages } from './messages/identity.messages';
import { scimMessages } from './messages/scim.messages';
import { samlMessages } from './messages/saml.messages';
import { passkeysMessages } from './messages/passkeys.messages';
import { logsMessages } from './messages/logs.messages';
import { ratioSyncMessages } from './messages/ratio-sync.messages';
import { modelsMessages } from './messages/models.messages';
import type { Language, MessageTable } from './message-table';

/**
 * The one message catalogue. Each domain keeps its messages in its own file under
 * messages/, and every code is listed here so that an unknown code fails to compile.
 */
export const MESSAGES = {
  ...commonMessages,
  ...usersMessages,
  ...optionsMessages,
  ...relayMessages,
  ...managementMessages,
  ...signinMessages,
  ...moneyMessages,
  ...outboundMessages,
  ...monitoringMessages,
  ...identityMessages,
  ...scimMessages,
  ...samlMessages,
  ...passkeysMessages,
  ...logsMessages,
  ...ratioSyncMessages,
  ...modelsMessages,
} satisfies MessageTable;

export type MessageCode = keyof typeof MESSAGES;
export type MessageParams = Record<string, string | number>;

export function isMessageCode(value: string): value is MessageCode {
  return Object.prototype.hasOwnProperty.call(MESSAGES, value);
}

export function translate(code: MessageCode, language: Language, params: MessageParams = {}): string {
  const template = MESSAGES[code][language];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** English only when the client puts English first; Chinese is the default and source language. */
export function pickLanguage(acceptLanguage: string | string[] | undefined): Language {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage[0] : acceptLanguage;
  if (!header) return 'zh';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...rest] = part.trim().toLowerCase().split(';');
      const q = rest.map((p) => /^q=([\d.]+)$/.exec(p.trim())).find(Boolean);
      return { tag, q: q ? Number(q[1]) : 1, index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag.startsWith('zh')) return 'zh';
    if (tag.startsWith('en')) return 'en';
  }
  return 'zh';
}
