import { AsyncLocalStorage } from 'node:async_hooks';

/** The request id header every relay and /api answer carries, so an operator can match a complaint to its log lines. */
export const REQUEST_ID_HEADER = 'x-request-id';

interface RequestContext {
  requestId: string;
}

/**
 * The request id of the request being served, for the log lines written while serving it.
 * On Node 20 an AsyncLocalStorage in use adds a hook to every promise of the process, so the
 * context is kept only when a logger reads it (LOG_FORMAT=json): otherwise `withRequestId`
 * just calls its function.
 */
const storage = new AsyncLocalStorage<RequestContext>();
let kept = false;

/** Turns the context on, once, before the first request (the JSON logger needs it). */
export function keepRequestContext(): void {
  kept = true;
}

/** Runs `serve` (and everything it starts) under `requestId`. */
export function withRequestId<T>(requestId: string, serve: () => T): T {
  return kept ? storage.run({ requestId }, serve) : serve();
}

/** Runs `work` outside any request: for lines about the process's own work that a request only happened to start (a timer). */
export function withoutRequestId<T>(work: () => T): T {
  return kept ? storage.exit(work) : work();
}

/** The id of the request whose work is running now, if any (and if the context is kept). */
export function currentRequestId(): string | undefined {
  return kept ? storage.getStore()?.requestId : undefined;
}
