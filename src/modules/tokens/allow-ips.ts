import { isIP } from 'node:net';
import { AppError } from '../../common/errors/app-error';

/** True for an IPv4/IPv6 address or a CIDR range such as 10.0.0.0/8 or 2001:db8::/32. */
export function isIpOrCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/** Checks every line; answers the list one per line, or null when empty. */
export function normaliseAllowIps(raw: string | null | undefined): string | null {
  const entries = (raw ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const invalid = entries.find((entry) => !isIpOrCidr(entry));
  if (invalid) throw new AppError('token.invalid_ip', { ip: invalid.slice(0, 64) });
  return entries.length ? [...new Set(entries)].join('\n') : null;
}
