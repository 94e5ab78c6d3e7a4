import type { Request, Response } from 'express';
import { SESSION_COOKIE, SESSION_TTL_SECONDS, SessionClient } from './sessions.service';

/** Sets the session cookie a sign-in (password or third-party) returns to the browser. */
export function setSessionCookie(request: Request, response: Response, cookie: string): void {
  response.cookie(SESSION_COOKIE, cookie, { httpOnly: true, sameSite: 'strict', secure: request.secure, path: '/', maxAge: SESSION_TTL_SECONDS * 1000 });
}

/** The browser's User-Agent and address (after TRUST_PROXY), kept with a new session for the session list. */
export function sessionClient(request: Request): SessionClient {
  // An IPv4 client of a dual-stack listener appears as ::ffff:a.b.c.d; show it as people know it.
  return { userAgent: request.headers['user-agent'] ?? '', ip: (request.ip ?? '').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1') };
}
