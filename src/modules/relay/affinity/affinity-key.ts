import type { JsonObject } from '../wire/wire-format';
import type { PreparedRequest } from '../stages/relay-request';

/**
 * Headers by which Codex names its session on every call of it: `session-id` (0.171, seen on the
 * wire, with `thread-id` and `x-client-request-id` carrying the same id); earlier versions sent
 * `session_id` and `conversation_id`.
 */
const SESSION_HEADERS = ['session-id', 'session_id', 'conversation_id'] as const;

/**
 * The session or prompt-cache key a request carries, if any: `prompt_cache_key` (OpenAI
 * Responses, as Codex sends it, and Chat Completions), Claude Code's `metadata.user_id` (which
 * names the session), or Codex's session header. A few property reads when there is none.
 */
export function sessionKeyOf(body: JsonObject | undefined, headers: PreparedRequest['headers']): string | undefined {
  if (body) {
    const cacheKey = body.prompt_cache_key;
    if (typeof cacheKey === 'string' && cacheKey !== '') return `c:${cacheKey}`;
    const metadata = body.metadata;
    if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
      const userId = (metadata as JsonObject).user_id;
      if (typeof userId === 'string' && userId !== '') return `u:${userId}`;
    }
  }
  for (const name of SESSION_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string' && value !== '') return `s:${value}`;
  }
  return undefined;
}

/** The request's affinity key: its session key, per token (the playground's per user) and model; undefined without a session key. */
export function affinityKeyOf(request: PreparedRequest): string | undefined {
  const session = sessionKeyOf(request.body, request.headers);
  if (session === undefined) return undefined;
  const holder = request.caller.token ? `t${request.caller.token.id}` : `u${request.caller.user.id}`;
  return `${holder}\n${request.model}\n${session}`;
}
