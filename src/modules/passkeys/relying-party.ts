import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../../common/errors/app-error';
import { OptionsService } from '../options/options.service';

/** Who the passkeys belong to: the site's name, its host (the RP ID) and the page origin the browser signs. */
export interface RelyingParty {
  name: string;
  id: string;
  origin: string;
}

/** Longer origins are refused: no real host needs them, and the challenge row keeps the origin in 255 characters. */
const MAX_ORIGIN_LENGTH = 200;

function originOf(address: string | undefined): string | null {
  if (!address || address.length > MAX_ORIGIN_LENGTH) return null;
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The RP ID of an origin: its host name (WebAuthn scopes credentials to a host, never a port or path). */
export function relyingPartyIdOf(origin: string): string {
  return new URL(origin).hostname;
}

/**
 * Resolves the relying party from the ServerAddress setting. Unset, the console's own origin
 * is used: the Origin header the browser sent (script cannot forge it), else the Host the
 * request came to. Either way the origin is stored with the challenge and checked at the end
 * of the ceremony, and a passkey only ever answers for the host it was registered on.
 */
@Injectable()
export class RelyingPartyResolver {
  constructor(private readonly options: OptionsService) {}

  resolve(request: Request): RelyingParty {
    const origin = originOf(this.options.get('ServerAddress')) ?? originOf(request.get('origin')) ?? originOf(`${request.protocol}://${request.get('host') ?? ''}`);
    if (!origin) throw new AppError('passkey.origin_unknown');
    return { name: this.options.get('SystemName'), id: relyingPartyIdOf(origin), origin };
  }
}
