import { UAParser } from 'ua-parser-js';
import type { SessionView } from './sessions.wire';

/** What the store keeps about a session beside its owner. */
export interface SessionDetails {
  id: string;
  userAgent: string;
  ip: string;
  createdTime: number;
  lastSeen: number;
}

function nameWithVersion(name: string | undefined, version: string | undefined): string {
  if (!name) return '';
  return version ? `${name} ${version}` : name;
}

/** The device, read from the User-Agent when listed (parsing is off the request path of every other call). */
export function toSessionView(details: SessionDetails, currentSessionId: string | undefined): SessionView {
  const parsed = UAParser(details.userAgent);
  return {
    id: details.id,
    browser: nameWithVersion(parsed.browser.name, parsed.browser.major),
    os: nameWithVersion(parsed.os.name, parsed.os.version),
    device_type: parsed.device.type === 'mobile' || parsed.device.type === 'tablet' ? parsed.device.type : 'desktop',
    ip: details.ip,
    created_time: details.createdTime,
    last_seen: details.lastSeen,
    current: details.id === currentSessionId,
  };
}
