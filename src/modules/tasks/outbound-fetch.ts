/**
 * The one place the task relays reach a URL a client or an upstream chose: the image proxy
 * and notifyHook callbacks. Kept in one function so the SSRF-guarded fetcher can replace it.
 */
export function fetchOutbound(url: string, init: { method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string>; timeoutMs: number }): Promise<Response> {
  return fetch(url, { method: init.method ?? 'GET', body: init.body, headers: init.headers, redirect: 'manual', signal: AbortSignal.timeout(init.timeoutMs) });
}
