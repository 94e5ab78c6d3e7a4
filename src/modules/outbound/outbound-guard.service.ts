import { Injectable } from '@nestjs/common';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { AppError } from '../../common/errors/app-error';
import type { MessageCode } from '../../common/i18n/catalogue';
import { OptionsService } from '../options/options.service';
import { checkUrlWithoutDns, OutboundPolicy, OutboundRefusedError, RefusalReason, resolveAllowedHost, Resolver } from './address-policy';

/** Root-only setting: outbound requests may reach loopback and private networks. */
export const ALLOW_PRIVATE_OPTION = 'fetch_setting.allow_private_ip' as const;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const MESSAGE_BY_REASON: Record<RefusalReason, MessageCode> = {
  scheme: 'outbound.refused_scheme',
  credentials: 'outbound.refused_credentials',
  port: 'outbound.refused_port',
  metadata_host: 'outbound.refused_forbidden',
  forbidden_address: 'outbound.refused_forbidden',
  private_address: 'outbound.refused_private',
  unresolvable: 'outbound.refused_unresolvable',
};

/** The refusal as a message the admin can act on (it names the setting when root could allow it). */
export function refusalToAppError(error: OutboundRefusedError): AppError {
  return new AppError(MESSAGE_BY_REASON[error.reason], { host: error.host, setting: ALLOW_PRIVATE_OPTION });
}

/**
 * The outbound guard every gateway fetch goes through. `assertUrlAllowed` runs before a
 * request (no DNS: scheme, port, literal addresses); `lookup` replaces DNS inside the socket
 * connect, so the address checked is the address dialled, and DNS rebinding cannot swap it.
 */
@Injectable()
export class OutboundGuardService {
  /** Tests replace it to judge names without real DNS. */
  resolver: Resolver = systemResolver;

  constructor(private readonly options: OptionsService) {}

  policy(): OutboundPolicy {
    return { allowPrivate: this.options.get(ALLOW_PRIVATE_OPTION) };
  }

  /** Throws OutboundRefusedError for what can be refused without resolving the host. */
  assertUrlAllowed(url: URL): void {
    checkUrlWithoutDns(url, this.policy());
  }

  /** For `net.connect({ lookup })` (undici's `connect` options): resolve, validate every address, hand over only those. */
  readonly lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolveAllowedHost(hostname, this.policy(), this.resolver).then(
      (addresses) => {
        const usable = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        if (usable.length === 0) return callback(Object.assign(new Error(`no usable address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(error, '', 0),
    );
  };

  /**
   * Save-time check of a base URL an admin typed: the same rules, with DNS. A name that does
   * not resolve here is accepted (it may resolve where the gateway runs); the connect-time
   * check judges it again on every new connection.
   */
  async assertBaseUrlAllowed(raw: string): Promise<void> {
    if (raw === '') return;
    const url = new URL(raw);
    try {
      checkUrlWithoutDns(url, this.policy());
      await resolveAllowedHost(url.hostname, this.policy(), this.resolver);
    } catch (error) {
      if (error instanceof OutboundRefusedError) {
        if (error.reason === 'unresolvable') return;
        throw refusalToAppError(error);
      }
      throw error;
    }
  }
}
