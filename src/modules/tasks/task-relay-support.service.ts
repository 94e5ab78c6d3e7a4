import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ChannelCacheService, PriorityTier } from '../relay/caches/channel-cache.service';
import { pickKey, type RelayChannel } from '../relay/caches/relay-channel';
import { pickChannel } from '../relay/channel-selector';
import type { RelayCaller } from '../relay/relay-caller';
import { RelayError } from '../relay/relay-error';
import { readRequestBody, refuseNonJsonBody } from '../relay/request-body';
import { checkModelAllowed, TokenAuthService } from '../relay/token-auth.service';
import { transportError, UpstreamClientService } from '../relay/upstream-client.service';

export type JsonRecord = Record<string, unknown>;

/** An upstream's JSON answer. `json` is undefined when the body was not JSON. */
export interface UpstreamJson {
  status: number;
  json: unknown;
}

/** A task upstream that has not answered a poll within this long is skipped for the round. */
export const POLL_TIMEOUT_MS = 20_000;

/**
 * What the Midjourney and Suno relays share with the OpenAI relay: its token authentication,
 * its channel cache and selection, and its upstream client.
 */
@Injectable()
export class TaskRelaySupport {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokenAuth: TokenAuthService,
    private readonly channels: ChannelCacheService,
    private readonly upstream: UpstreamClientService,
  ) {}

  /** Midjourney clients may send the token as `mj-api-secret` instead of a bearer header. */
  authenticate(request: IncomingMessage): Promise<RelayCaller> {
    const secret = request.headers['mj-api-secret'];
    if (!request.headers.authorization && typeof secret === 'string' && secret) request.headers.authorization = `Bearer ${secret}`;
    return this.tokenAuth.authenticate(request);
  }

  async readJsonBody(request: IncomingMessage): Promise<JsonRecord> {
    refuseNonJsonBody(request);
    const raw = await readRequestBody(request, this.config.relay.maxRequestBodyBytes);
    let parsed: unknown;
    try {
      parsed = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
    } catch {
      throw new RelayError('invalid_request', 'The request body is not valid JSON', 400);
    }
    if (!isRecord(parsed)) throw new RelayError('invalid_request', 'The request body must be a JSON object', 400);
    return parsed;
  }

  /** A channel of one of `types` that serves `model` in the caller's group, by priority and weight. */
  pickChannel(caller: RelayCaller, model: string, types: readonly number[]): RelayChannel {
    checkModelAllowed(caller, model);
    const tiers: PriorityTier[] = this.channels
      .tiers(caller.group, model)
      .map((tier) => ({ priority: tier.priority, members: tier.members.filter((member) => types.includes(member.channel.type)) }));
    const channel = pickChannel(tiers, new Set());
    if (!channel) throw new RelayError('no_available_channel', `No channel serves ${model} in group ${caller.group}`, 503);
    return channel;
  }

  channel(id: number): RelayChannel | undefined {
    return this.channels.channel(id);
  }

  /** One JSON call to a task upstream; transport failures become channel errors that name no host. */
  async callJson(channel: RelayChannel, path: string, headers: Record<string, string>, body: unknown, timeoutMs = this.config.relay.timeoutMs): Promise<UpstreamJson> {
    const url = new URL(channel.baseUrl.replace(/\/+$/, '') + path);
    let answer;
    try {
      answer = await this.upstream.send({
        url,
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeoutMs: timeoutMs,
        bodyTimeoutMs: timeoutMs,
      });
    } catch (error) {
      throw transportError(error);
    }
    let text: string;
    try {
      text = await answer.body.text();
    } catch (error) {
      throw transportError(error);
    }
    try {
      return { status: answer.statusCode, json: JSON.parse(text) as unknown };
    } catch {
      return { status: answer.statusCode, json: undefined };
    }
  }

  /**
   * A call to a URL a client or an upstream chose (an image to proxy, a notifyHook): one of the
   * gateway's own fetches, so it leaves through the worker when WorkerUrl is set, else goes out
   * directly, each redirect hop judged by the outbound guard like every upstream call.
   */
  sendOutbound(url: string, method: 'GET' | 'POST', timeoutMs: number, body?: string): Promise<Dispatcher.ResponseData> {
    return this.upstream.sendOwn({ url: new URL(url), method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs });
  }

  key(channel: RelayChannel): string {
    return pickKey(channel);
  }
}

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(record: JsonRecord, name: string): string {
  const value = record[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** A JSON column's value, or null when it is empty or not JSON. */
export function parseJsonText(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
