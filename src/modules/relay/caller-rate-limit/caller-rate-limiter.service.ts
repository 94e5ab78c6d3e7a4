import { Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { randomAlphanumeric } from '../../../common/crypto/secret-box';
import { RedisService } from '../../../common/redis/redis.service';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import type { RelayCaller } from '../relay-caller';
import { RelayError } from '../relay-error';

/** The limits slide over the last minute. */
export const LIMIT_WINDOW_MS = 60_000;

/** What admission took: the request counted, and its token estimate reserved. */
export interface CallerLimitTicket {
  /** The request ended with this many prompt plus completion tokens: the reservation becomes that. */
  settle(tokens: number): void;
  /** The request failed upstream: its token reservation goes, the request stays counted. */
  release(): void;
  /** The request never reached an upstream (its hold was refused): neither counts. */
  cancel(): void;
}

/** One scope's limits (a token's or a user's); 0 means none. */
interface ScopeLimits {
  holder: 'token' | 'user';
  prefix: string;
  rpm: number;
  tpm: number;
}

/**
 * A scope's state at admission: whether it refused (0 no, 1 requests, 2 tokens), the requests
 * and tokens in the last minute before this one, and the ms until one request slot frees, until
 * this request's tokens fit, and until the scope is empty again.
 */
interface ScopeVerdict {
  refused: number;
  requests: number;
  tokens: number;
  requestFreesMs: number;
  tokensFitMs: number;
  requestsEmptyMs: number;
  tokensEmptyMs: number;
}

/**
 * The sliding minute of every scope in one step, so concurrent requests (on any instance)
 * cannot overshoot: prune what left the window, refuse when any scope's requests or tokens
 * would pass its limit, else count the request in every scope and reserve its tokens.
 * Time is Redis's, so instances agree. KEYS: per scope its requests zset, tokens zset and
 * token sum. ARGV: member, tokens, then per scope rpm and tpm. Token members are
 * `member:tokens`, so what leaves the window is subtracted from the sum exactly.
 * Answers per scope {refused, requests, tokens, requestFreesMs, tokensFitMs, requestsEmptyMs, tokensEmptyMs}, flattened.
 */
const ADMIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local windowMs = ${LIMIT_WINDOW_MS}
local member = ARGV[1]
local tokens = tonumber(ARGV[2])
local scopes = #KEYS / 3
local answer = {}
local refused = false
for i = 0, scopes - 1 do
  local reqKey, tokKey, sumKey = KEYS[i * 3 + 1], KEYS[i * 3 + 2], KEYS[i * 3 + 3]
  local rpm, tpm = tonumber(ARGV[3 + i * 2]), tonumber(ARGV[4 + i * 2])
  local cutoff = now - windowMs
  redis.call('ZREMRANGEBYSCORE', reqKey, '-inf', cutoff)
  local gone = redis.call('ZRANGEBYSCORE', tokKey, '-inf', cutoff)
  if #gone > 0 then
    local freed = 0
    for _, m in ipairs(gone) do freed = freed + tonumber(string.match(m, ':(%d+)$')) end
    redis.call('ZREMRANGEBYSCORE', tokKey, '-inf', cutoff)
    redis.call('DECRBY', sumKey, freed)
  end
  local count = redis.call('ZCARD', reqKey)
  local used = tonumber(redis.call('GET', sumKey) or '0')
  local verdict = 0
  local requestFrees, tokensFit, requestsEmpty, tokensEmpty = 0, 0, 0, 0
  if count > 0 then
    local oldest = redis.call('ZRANGE', reqKey, 0, 0, 'WITHSCORES')
    local newest = redis.call('ZRANGE', reqKey, -1, -1, 'WITHSCORES')
    requestFrees = tonumber(oldest[2]) + windowMs - now
    requestsEmpty = tonumber(newest[2]) + windowMs - now
  end
  local newestTokens = redis.call('ZRANGE', tokKey, -1, -1, 'WITHSCORES')
  if #newestTokens > 0 then tokensEmpty = tonumber(newestTokens[2]) + windowMs - now end
  if tpm > 0 and used + tokens > tpm then
    -- Only a refusal walks the minute's entries, to say when enough of them will have left.
    local entries = redis.call('ZRANGE', tokKey, 0, -1, 'WITHSCORES')
    tokensFit = windowMs
    local left = used
    for j = 1, #entries, 2 do
      left = left - tonumber(string.match(entries[j], ':(%d+)$'))
      if left + tokens <= tpm then tokensFit = tonumber(entries[j + 1]) + windowMs - now; break end
    end
  end
  if rpm > 0 and count >= rpm then verdict = 1 elseif tpm > 0 and used + tokens > tpm then verdict = 2 end
  if verdict > 0 then refused = true end
  for _, v in ipairs({verdict, count, used, requestFrees, tokensFit, requestsEmpty, tokensEmpty}) do table.insert(answer, v) end
end
if not refused then
  for i = 0, scopes - 1 do
    local reqKey, tokKey, sumKey = KEYS[i * 3 + 1], KEYS[i * 3 + 2], KEYS[i * 3 + 3]
    redis.call('ZADD', reqKey, now, member)
    redis.call('ZADD', tokKey, now, member .. ':' .. tokens)
    redis.call('INCRBY', sumKey, tokens)
    for _, key in ipairs({reqKey, tokKey, sumKey}) do redis.call('PEXPIRE', key, windowMs + 1000) end
  end
end
return answer
`;

/**
 * A reservation becomes `newTokens` (0 with ARGV[4] = 1: removed, and with ARGV[5] = 1 the
 * request too), in the moment it was taken, if it is still in the window.
 * KEYS per scope as ADMIT_SCRIPT. ARGV: member, old tokens, new tokens, remove, remove the request.
 */
const ADJUST_SCRIPT = `
local member, old, new, remove, dropRequest = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4] == '1', ARGV[5] == '1'
for i = 0, #KEYS / 3 - 1 do
  local reqKey, tokKey, sumKey = KEYS[i * 3 + 1], KEYS[i * 3 + 2], KEYS[i * 3 + 3]
  local score = redis.call('ZSCORE', tokKey, member .. ':' .. old)
  if score then
    redis.call('ZREM', tokKey, member .. ':' .. old)
    if remove then redis.call('DECRBY', sumKey, old) else
      redis.call('ZADD', tokKey, score, member .. ':' .. new)
      redis.call('INCRBY', sumKey, new - old)
    end
  end
  if dropRequest then redis.call('ZREM', reqKey, member) end
end
return 0
`;

type RedisWithScripts = Redis & {
  callerLimitAdmit(...keysAndArgs: Array<string | number>): Promise<number[]>;
  callerLimitAdjust(...keysAndArgs: Array<string | number>): Promise<number>;
};

/** One request in a scope's minute on this instance: when, its member, its tokens (reserved or settled). */
interface LocalEntry {
  at: number;
  member: string;
  tokens: number;
  /** Still counted as a request (false once cancelled). */
  counted: boolean;
}

/**
 * One scope's minute on this instance (no Redis): its entries oldest first from `head` (a
 * queue without Array.shift, which copies a long array), how many count as requests, and
 * their tokens.
 */
interface LocalScope {
  entries: LocalEntry[];
  head: number;
  requests: number;
  sum: number;
}

/**
 * RPM and TPM limits of tokens and users (rpm_limit, tpm_limit; 0 = none), each over the last
 * minute, sliding. A request is counted when admitted and reserves its token estimate (prompt
 * estimate plus max_tokens); when it settles the reservation becomes the prompt plus completion
 * tokens billed. Over a limit, 429 with Retry-After and OpenAI's x-ratelimit-* headers. With
 * Redis the minute is shared by every instance, checked and taken in one script; without
 * Redis each instance counts its own (the README says so).
 */
@Injectable()
export class CallerRateLimiterService {
  private readonly logger = new Logger(CallerRateLimiterService.name);
  private readonly redis: RedisWithScripts | null;
  private readonly local = new Map<string, LocalScope>();
  private readonly instance = randomAlphanumeric(8);
  private counter = 0;
  private lastSweep = 0;

  constructor(
    redis: RedisService,
    private readonly metrics: GatewayMetrics,
  ) {
    this.redis = redis.client as RedisWithScripts | null;
    this.redis?.defineCommand('callerLimitAdmit', { lua: ADMIT_SCRIPT });
    this.redis?.defineCommand('callerLimitAdjust', { lua: ADJUST_SCRIPT });
  }

  /** Whether the caller has any limit: the relay's only cost when none is set. */
  static applies(caller: RelayCaller): boolean {
    const { token, user } = caller;
    return user.rpmLimit > 0 || user.tpmLimit > 0 || (token !== null && (token.rpmLimit > 0 || token.tpmLimit > 0));
  }

  /** Counts the request and reserves `estimate` tokens in the caller's token and user, or refuses with a 429. */
  async admit(caller: RelayCaller, estimate: number): Promise<CallerLimitTicket> {
    const scopes: ScopeLimits[] = [];
    const { token, user } = caller;
    if (token && (token.rpmLimit > 0 || token.tpmLimit > 0)) scopes.push({ holder: 'token', prefix: `caller-limit:t:${token.id}`, rpm: token.rpmLimit, tpm: token.tpmLimit });
    if (user.rpmLimit > 0 || user.tpmLimit > 0) scopes.push({ holder: 'user', prefix: `caller-limit:u:${user.id}`, rpm: user.rpmLimit, tpm: user.tpmLimit });
    const member = `${this.instance}${++this.counter}`;
    const tokens = Math.max(0, Math.ceil(estimate));
    const verdicts = this.redis ? await this.admitShared(scopes, member, tokens) : this.admitLocal(scopes, member, tokens, Date.now());
    if (!verdicts) return { settle: () => undefined, release: () => undefined, cancel: () => undefined };
    const refusedAt = verdicts.findIndex((verdict) => verdict.refused > 0);
    if (refusedAt >= 0) {
      if (this.metrics.enabled) this.metrics.rateLimitRefused('caller');
      throw refusal(scopes[refusedAt], verdicts[refusedAt], tokens);
    }
    let reserved = tokens;
    let ended = false;
    const adjust = (to: number, remove: boolean, dropRequest: boolean) => {
      if (ended) return;
      ended = true;
      if (this.redis) this.adjustShared(scopes, member, reserved, to, remove, dropRequest);
      else this.adjustLocal(scopes, member, reserved, to, remove, dropRequest);
      reserved = to;
    };
    return {
      settle: (used) => adjust(Math.max(0, Math.round(used)), false, false),
      release: () => adjust(0, true, false),
      cancel: () => adjust(0, true, true),
    };
  }

  private async admitShared(scopes: ScopeLimits[], member: string, tokens: number): Promise<ScopeVerdict[] | undefined> {
    const keys = scopes.flatMap((scope) => [`${scope.prefix}:r`, `${scope.prefix}:t`, `${scope.prefix}:s`]);
    const args = [member, tokens, ...scopes.flatMap((scope) => [scope.rpm, scope.tpm])];
    try {
      const flat = await this.redis!.callerLimitAdmit(keys.length, ...keys, ...args);
      return scopes.map((_, index) => verdictFrom(flat.slice(index * 7, index * 7 + 7).map(Number)));
    } catch (error) {
      // Redis unreachable: serve rather than refuse everyone; the operator sees why the limit slipped.
      this.logger.warn(`RPM/TPM limits not checked, Redis failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  private adjustShared(scopes: ScopeLimits[], member: string, from: number, to: number, remove: boolean, dropRequest: boolean): void {
    const keys = scopes.flatMap((scope) => [`${scope.prefix}:r`, `${scope.prefix}:t`, `${scope.prefix}:s`]);
    void this.redis!
      .callerLimitAdjust(keys.length, ...keys, member, from, to, remove ? 1 : 0, dropRequest ? 1 : 0)
      .catch((error: Error) => this.logger.warn(`RPM/TPM limit adjustment failed: ${error.message}`));
  }

  private admitLocal(scopes: ScopeLimits[], member: string, tokens: number, now: number): ScopeVerdict[] {
    this.sweep(now);
    const states = scopes.map((scope) => this.localScope(scope.prefix, now));
    const verdicts = scopes.map((scope, index) => localVerdict(scope, states[index], tokens, now));
    if (verdicts.some((verdict) => verdict.refused > 0)) return verdicts;
    for (const state of states) {
      state.entries.push({ at: now, member, tokens, counted: true });
      state.requests += 1;
      state.sum += tokens;
    }
    return verdicts;
  }

  private adjustLocal(scopes: ScopeLimits[], member: string, from: number, to: number, remove: boolean, dropRequest: boolean): void {
    for (const scope of scopes) {
      const state = this.local.get(scope.prefix);
      if (!state) continue;
      // The request is among the newest: look from the end.
      let index = state.entries.length - 1;
      while (index >= state.head && state.entries[index].member !== member) index--;
      if (index < state.head) continue;
      const entry = state.entries[index];
      entry.tokens = remove ? 0 : to;
      state.sum += entry.tokens - from;
      if (dropRequest && entry.counted) {
        entry.counted = false;
        state.requests -= 1;
      }
    }
  }

  /** The scope's minute with what left the window pruned. */
  private localScope(prefix: string, now: number): LocalScope {
    let state = this.local.get(prefix);
    if (!state) this.local.set(prefix, (state = { entries: [], head: 0, requests: 0, sum: 0 }));
    const cutoff = now - LIMIT_WINDOW_MS;
    while (state.head < state.entries.length && state.entries[state.head].at <= cutoff) {
      const gone = state.entries[state.head++];
      state.sum -= gone.tokens;
      if (gone.counted) state.requests -= 1;
    }
    if (state.head > 1024 && state.head * 2 > state.entries.length) {
      state.entries = state.entries.slice(state.head);
      state.head = 0;
    }
    return state;
  }

  /** Forgets scopes idle for a minute, now and then, so the map stays the size of the active callers. */
  private sweep(now: number): void {
    if (now - this.lastSweep < LIMIT_WINDOW_MS) return;
    this.lastSweep = now;
    for (const [prefix, state] of this.local) {
      const last = state.entries.at(-1)?.at ?? 0;
      if (last <= now - LIMIT_WINDOW_MS) this.local.delete(prefix);
    }
  }
}

function verdictFrom([refused, requests, tokens, requestFreesMs, tokensFitMs, requestsEmptyMs, tokensEmptyMs]: number[]): ScopeVerdict {
  return { refused, requests, tokens, requestFreesMs, tokensFitMs, requestsEmptyMs, tokensEmptyMs };
}

/** ADMIT_SCRIPT's verdict for one scope, on this instance's own counts. */
function localVerdict(scope: ScopeLimits, state: LocalScope, tokens: number, now: number): ScopeVerdict {
  const { entries, head } = state;
  let first = head;
  while (first < entries.length && !entries[first].counted) first++;
  const oldest = first < entries.length ? entries[first] : undefined;
  const newest = entries.length > head ? entries[entries.length - 1] : undefined;
  const verdict: ScopeVerdict = {
    refused: 0,
    requests: state.requests,
    tokens: state.sum,
    requestFreesMs: oldest ? oldest.at + LIMIT_WINDOW_MS - now : 0,
    tokensFitMs: 0,
    requestsEmptyMs: newest ? newest.at + LIMIT_WINDOW_MS - now : 0,
    tokensEmptyMs: newest ? newest.at + LIMIT_WINDOW_MS - now : 0,
  };
  if (scope.tpm > 0 && state.sum + tokens > scope.tpm) {
    // Only a refusal walks the minute's entries, to say when enough of them will have left.
    verdict.tokensFitMs = LIMIT_WINDOW_MS;
    let left = state.sum;
    for (let index = head; index < entries.length; index++) {
      left -= entries[index].tokens;
      if (left + tokens <= scope.tpm) {
        verdict.tokensFitMs = entries[index].at + LIMIT_WINDOW_MS - now;
        break;
      }
    }
  }
  if (scope.rpm > 0 && state.requests >= scope.rpm) verdict.refused = 1;
  else if (scope.tpm > 0 && state.sum + tokens > scope.tpm) verdict.refused = 2;
  return verdict;
}

/**
 * The 429: Retry-After is when this request would fit (a request slot frees, or enough tokens
 * leave the minute); the x-ratelimit-reset-* headers say when the scope is back to its full
 * limit, as OpenAI's do. Headers of a kind without a limit are left out.
 */
function refusal(scope: ScopeLimits, verdict: ScopeVerdict, tokens: number): RelayError {
  const whose = scope.holder === 'token' ? 'This API key' : 'Your account';
  const byRequests = verdict.refused === 1;
  const message = byRequests
    ? `${whose} has reached its limit of ${scope.rpm} requests per minute`
    : `${whose} has reached its limit of ${scope.tpm} tokens per minute (this request may use ${tokens})`;
  const error = new RelayError('rate_limit_exceeded', `${message}. Try again later`, 429);
  error.retryAfterSeconds = Math.max(1, Math.ceil((byRequests ? verdict.requestFreesMs : verdict.tokensFitMs) / 1000));
  const headers: Record<string, string | number> = {};
  if (scope.rpm > 0) {
    headers['x-ratelimit-limit-requests'] = scope.rpm;
    headers['x-ratelimit-remaining-requests'] = Math.max(0, scope.rpm - verdict.requests);
    headers['x-ratelimit-reset-requests'] = openAiDuration(verdict.requestsEmptyMs);
  }
  if (scope.tpm > 0) {
    headers['x-ratelimit-limit-tokens'] = scope.tpm;
    headers['x-ratelimit-remaining-tokens'] = Math.max(0, scope.tpm - verdict.tokens);
    headers['x-ratelimit-reset-tokens'] = openAiDuration(verdict.tokensEmptyMs);
  }
  error.headers = headers;
  return error;
}

/** A duration as OpenAI writes its reset headers: `20ms`, `1.5s`, `6m0s`. */
export function openAiDuration(ms: number): string {
  const rounded = Math.max(0, Math.ceil(ms));
  if (rounded < 1000) return `${rounded}ms`;
  const minutes = Math.floor(rounded / 60_000);
  const seconds = (rounded % 60_000) / 1000;
  const secondsText = `${Number.isInteger(seconds) ? seconds : seconds.toFixed(3).replace(/0+$/, '')}s`;
  return minutes > 0 ? `${minutes}m${secondsText}` : secondsText;
}
