import { createHash } from 'node:crypto';
import type { JsonObject, WireFormat } from '../wire/wire-format';
import type { RelayEndpoint } from '../relay-endpoints';
import type { PreparedRequest } from '../stages/relay-request';

/** The endpoints whose answers are cached: a chat in any client format (OpenAI, Claude, Gemini), embeddings and rerank. */
const CACHED_ENDPOINTS: ReadonlySet<RelayEndpoint> = new Set(['chat', 'embeddings', 'rerank']);

/** Members that say how the answer travels, not what it says: a streamed call finds the answer a whole one stored. */
const FRAMING_MEMBERS: ReadonlySet<string> = new Set(['stream', 'stream_options']);

/**
 * Whether this call may be answered from the cache and its answer stored: a JSON call of a
 * cached endpoint over HTTP. A chat only when it samples at temperature 0, unless its token
 * takes nondeterministic answers too (`response_cache_nondeterministic`): a chat that names no
 * temperature samples at the provider's default (1 at OpenAI, Anthropic and Google), so it is
 * nondeterministic.
 */
export function isCacheable(request: PreparedRequest): boolean {
  const { route, body } = request;
  if (!body || route.websocket || !CACHED_ENDPOINTS.has(route.spec.endpoint)) return false;
  if (route.spec.endpoint !== 'chat' || request.caller.token?.responseCacheNondeterministic) return true;
  return samplingTemperature(route.inbound.wire, body) === 0;
}

/** The temperature a chat body asks for, where its format puts it. */
function samplingTemperature(wire: WireFormat, body: JsonObject): unknown {
  if (wire !== 'gemini') return body.temperature;
  const config = body.generationConfig ?? body.generation_config;
  return typeof config === 'object' && config !== null ? (config as JsonObject).temperature : undefined;
}

/**
 * The cache key of a call: a SHA-256 of who may share the answer (the user, or everyone when
 * `sharedAcrossUsers`), the group whose channels serve it, the client's format and endpoint,
 * the model, and the body with its members in name order and its framing members left out.
 * Only the hash is kept (in memory or Redis): no prompt or user id travels with it.
 */
export function responseCacheKey(request: PreparedRequest, sharedAcrossUsers: boolean): string {
  const { caller, route } = request;
  const scope = sharedAcrossUsers ? '*' : String(caller.user.id);
  const hash = createHash('sha256');
  hash.update(`v1\n${scope}\n${caller.group}\n${route.inbound.wire}\n${route.spec.path}\n${request.model}\n`);
  hash.update(canonicalJson(request.body, FRAMING_MEMBERS));
  return hash.digest('base64url');
}

/** JSON with each object's members in name order, so two bodies that differ only in member order are one; `skipped` members of the top object are left out. */
export function canonicalJson(value: unknown, skipped?: ReadonlySet<string>): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const object = value as JsonObject;
  let json = '';
  for (const name of Object.keys(object).sort()) {
    const member = object[name];
    if (member === undefined || skipped?.has(name)) continue;
    json += `${json ? ',' : ''}${JSON.stringify(name)}:${canonicalJson(member)}`;
  }
  return `{${json}}`;
}
