import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Paths the console's client-side router must never take over. */
const SERVER_PREFIXES = ['/api/', '/v1/', '/pg/', '/mj/', '/suno/', '/v1beta/'];

/**
 * Serves index.html for console routes such as /user or /personal so deep links reload;
 * API paths fall through to their own 404 in the envelope.
 */
export function spaFallback(webDistDir: string) {
  const indexFile = path.join(webDistDir, 'index.html');
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    if (request.path === '/api' || request.path === '/v1' || SERVER_PREFIXES.some((prefix) => request.path.startsWith(prefix))) return next();
    if (!existsSync(indexFile)) return next();
    response.setHeader('Cache-Control', 'no-cache');
    response.sendFile(indexFile);
  };
}
