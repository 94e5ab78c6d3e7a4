import { isEmail } from 'class-validator';
import { AppError } from '../../common/errors/app-error';

/** Providers that ignore dots in the local part, so `a.b@` and `ab@` reach one mailbox. */
const DOT_INSENSITIVE_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

export interface EmailRules {
  domainRestriction: boolean;
  /** Lower-case domains. */
  domainWhitelist: string[];
  aliasRestriction: boolean;
}

/** Lower-cases and trims an address, so one mailbox is one subject. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Refuses an address the settings do not allow, with the message the user should see. */
export function assertEmailAllowed(email: string, rules: EmailRules): void {
  if (!isEmail(email)) throw new AppError('validation.not_email');
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (rules.domainRestriction && !rules.domainWhitelist.includes(domain)) throw new AppError('email.domain_not_allowed');
  if (rules.aliasRestriction && (local.includes('+') || (DOT_INSENSITIVE_DOMAINS.has(domain) && local.includes('.')))) {
    throw new AppError('email.alias_not_allowed');
  }
}
