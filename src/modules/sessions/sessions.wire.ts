/** One signed-in browser as the personal page lists it (GET /api/user/sessions). */
export interface SessionView {
  /** Opaque handle for revoking; the sha256 of the cookie's secret, which signs nobody in. */
  id: string;
  /** Browser and version, e.g. "Chrome 120"; empty when the User-Agent says nothing. */
  browser: string;
  /** Operating system and version, e.g. "macOS 14". */
  os: string;
  /** "mobile", "tablet" or "desktop". */
  device_type: string;
  ip: string;
  created_time: number;
  last_seen: number;
  /** The session this request came with. */
  current: boolean;
}
