/** The endpoints an OpenID provider's discovery document names (OpenID Connect Discovery 1.0). */
export interface OidcEndpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
}

const DISCOVERY_TIMEOUT_MS = 10_000;

/**
 * Reads the well-known document from the administrator's browser, as the spec lists it among the
 * console's calls: the gateway never dials an address typed here. Resolves null when the document
 * cannot be fetched (network, CORS, timeout) or lacks the three endpoints.
 */
export async function fetchOidcEndpoints(wellKnownUrl: string): Promise<OidcEndpoints | null> {
  try {
    const response = await fetch(wellKnownUrl, { headers: { Accept: 'application/json' }, credentials: 'omit', signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
    if (!response.ok) return null;
    const document = (await response.json()) as Partial<Record<keyof OidcEndpoints, unknown>>;
    const { authorization_endpoint, token_endpoint, userinfo_endpoint } = document;
    if (typeof authorization_endpoint !== 'string' || typeof token_endpoint !== 'string' || typeof userinfo_endpoint !== 'string') return null;
    return { authorization_endpoint, token_endpoint, userinfo_endpoint };
  } catch {
    return null;
  }
}
