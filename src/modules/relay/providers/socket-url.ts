/** An http(s) or ws(s) address as the ws(s) one a WebSocket dials. */
export function socketUrl(address: string | URL): URL {
  const url = new URL(address);
  url.protocol = url.protocol === 'http:' || url.protocol === 'ws:' ? 'ws:' : 'wss:';
  return url;
}

/** The same address over HTTP(S): what the outbound guard judges (it knows no ws: scheme). */
export function httpSchemeUrl(url: URL): URL {
  const http = new URL(url);
  if (http.protocol === 'ws:') http.protocol = 'http:';
  else if (http.protocol === 'wss:') http.protocol = 'https:';
  return http;
}
