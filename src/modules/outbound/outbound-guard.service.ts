import { Injectable } from '@nestjs/common';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, request } from 'undici';
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

/** The guard's refusal, whether thrown before sending or from inside the socket's connect. */
export function outboundRefusal(error: unknown): OutboundRefusedError | undefined {
  if (error instanceof OutboundRefusedError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof OutboundRefusedError ? cause : undefined;
}

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
   * One GET through the guard, for the gateway's own rare calls to an address an admin
   * configured (the WeChat server): the URL is judged first and every resolved address inside
   * connect; redirects are not followed. A throwaway connection, so no pooled socket outlives
   * a change of the private-address setting.
   */
  async getText(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number; text: string }> {
    this.assertUrlAllowed(url);
    const agent = new Agent({ connect: { lookup: this.lookup, timeout: timeoutMs } });
    try {
      const answer = await request(url, { method: 'GET', headers, dispatcher: agent, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      return { status: answer.statusCode, text: await answer.body.text() };
    } finally {
      void agent.close();
    }
  }

  /**
   * Node http(s) request options that send the connection through the guard (for clients
   * built on node:http, such as openid-client): call it with the URL about to be requested.
   */
  httpOptionsFor(url: URL): { lookup: OutboundGuardService['lookup'] } {
    this.assertUrlAllowed(url);
    return { lookup: this.lookup };
  }

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
