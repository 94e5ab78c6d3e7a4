import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { ChannelHealthService } from '../../channel-health/channel-health.service';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { channelTypeRow } from '../../channels/channel-types';
import { OutboundGuardService } from '../../outbound/outbound-guard.service';
import { OptionsService } from '../../options/options.service';
import { PricingService } from '../../pricing/pricing.service';
import { AUTO_GROUP, AutoGroupRouter } from '../auto-group';
import { ChannelCacheService } from '../caches/channel-cache.service';
import { drawKey, type RelayChannel } from '../caches/relay-channel';
import { pickChannel } from '../channel-selector';
import { OPENAI_FORMAT } from '../formats/openai.format';
import type { JsonObject } from '../wire/wire-format';
import { socketEndpoints, type UpstreamTarget } from '../providers/adaptor';
import { readUsage } from '../wire/openai-usage';
import { ProviderRegistry } from '../providers/provider-registry';
import { httpSchemeUrl } from '../providers/socket-url';
import { fullUsage } from '../wire/usage';
import { modelNotFound, RelayError } from '../relay-error';
import { attemptsAllowed } from '../retry-policy';
import { RelayPrepareStage } from '../stages/prepare.stage';
import type { PreparedRequest, RelayRoute } from '../stages/relay-request';
import { RelaySettleStage } from '../stages/settle.stage';
import { checkModelAllowed, TokenAuthService } from '../token-auth.service';
import { socketErrorFrame } from './socket-errors';
import { parseSocketEvent, SocketEventSink } from './socket-event-sink';
import { openUpstreamSocket, UpgradeRefusedError, type SocketFrame } from './upstream-socket';

/** `/v1/realtime`: each response of the session is a call of its own, billed from its `response.done` (shared: never modified). */
export const REALTIME_ROUTE: RelayRoute = { spec: { endpoint: 'chat', path: '/realtime', body: 'json' }, inbound: OPENAI_FORMAT, playground: false, stream: true, websocket: true };

/** The Realtime events whose `delta` is text the client received (a dropped response is billed on it). */
const TEXT_DELTAS = new Set(['response.text.delta', 'response.output_text.delta', 'response.audio_transcript.delta', 'response.output_audio_transcript.delta']);

/** A Realtime session's upstream: the channel chosen at the upgrade, and its open socket. */
export interface RealtimeUpstream {
  socket: WebSocket;
  target: UpstreamTarget;
  model: string;
  /** Frames the upstream sent before the client's upgrade was accepted (its session.created): passed on first. */
  early: SocketFrame[];
}

/** One response of the session: its hold (taken when the upstream announces it) and the text delivered so far. */
interface HeldResponse {
  prepared: Promise<PreparedRequest | undefined>;
  /** The response's view of the client socket: its closing is the client going away. */
  sink: SocketEventSink;
  text: string;
  firstByteAt?: number;
}

/**
 * OpenAI's Realtime API relayed to OpenAI and Azure channels: the upgrade is authenticated by
 * the token (as HTTP calls are), the session pinned to one channel whose row offers `realtime`,
 * and frames pass both ways untouched. Each response the upstream announces
 * (`response.created`, whether the client asked or server VAD did) takes a hold through the
 * prepare stage (token, model, limits, budget windows, quota); its `response.done` usage settles
 * it, text and audio at their ratios. A side that drops mid-response settles what was delivered.
 */
@Injectable()
export class RealtimeSocketService {
  private readonly logger = new Logger(RealtimeSocketService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsService,
    private readonly tokenAuth: TokenAuthService,
    private readonly channels: ChannelCacheService,
    private readonly autoGroups: AutoGroupRouter,
    private readonly providers: ProviderRegistry,
    private readonly guard: OutboundGuardService,
    private readonly pricing: PricingService,
    private readonly prepareStage: RelayPrepareStage,
    private readonly settleStage: RelaySettleStage,
    private readonly health: ChannelHealthService,
  ) {}

  /** Before the client's upgrade is accepted: who calls, for which model, over which channel's open socket. */
  async open(upgrade: IncomingMessage): Promise<RealtimeUpstream> {
    const caller = await this.tokenAuth.authenticate(upgrade);
    const query = new URL(upgrade.url ?? '/', 'http://relay').searchParams;
    const model = query.get('model') ?? query.get('deployment');
    if (!model) throw new RelayError('invalid_request', 'Name the model: /v1/realtime?model=…', 400);
    checkModelAllowed(caller, model);
    // An `auto` token may be served by the channels of each of its AutoGroups; each response is then priced as the prepare stage prices it.
    const tiers = caller.group === AUTO_GROUP ? this.autoGroups.candidates(caller.user.group, model).flatMap((candidate) => candidate.tiers) : this.channels.tiers(caller.group, model);
    if (tiers.length === 0) throw this.channels.listsModel(model) ? new RelayError('no_available_channel', `No channel is available for the model ${model} in group ${caller.group} now`, 503) : modelNotFound(model);
    const passed = new Set<number>();
    let lastError: unknown;
    for (let attempt = 0; attempt < attemptsAllowed(this.options.get('RetryTimes')); ) {
      // As the HTTP dispatch chooses: a channel whose breaker is open rests, and weights follow its health.
      const channel = pickChannel(tiers, passed, { health: this.health });
      if (!channel) break;
      passed.add(channel.id);
      const target = this.targetOf(channel, model, upgrade);
      const url = target && this.realtimeUrl(target);
      if (!target || !url) continue;
      attempt++;
      const startedAt = performance.now();
      this.health.attemptStarted(channel);
      try {
        const early: SocketFrame[] = [];
        const socket = await this.connect(target, url, early);
        this.health.attemptEnded(channel, 'ok', performance.now() - startedAt);
        return { socket, target, model, early };
      } catch (error) {
        // A refused upgrade below 500 is the request's (a model the upstream lacks); a network error or a 5xx is the channel's.
        const channelFault = !(error instanceof UpgradeRefusedError) || error.status >= 500;
        this.health.attemptEnded(channel, channelFault ? 'fault' : 'neutral', 0);
        lastError = error;
        this.logger.debug(`channel ${channel.id}: realtime upgrade failed (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    if (lastError === undefined) throw new RelayError('invalid_request', `No channel serving the model ${model} in group ${caller.group} offers /v1/realtime`, 400);
    throw new RelayError('channel:connection_error', 'No upstream accepted the realtime session', 502);
  }

  /** Relays the session's frames both ways and bills each response, until either side closes. */
  serve(client: WebSocket, upgrade: IncomingMessage, upstream: RealtimeUpstream): void {
    const responses = new Map<string, HeldResponse>();
    let closing = false;
    const closeBoth = (code: number, reason: string, clientLeft = false) => {
      if (closing) return;
      closing = true;
      for (const held of responses.values()) void this.settleDelivered(held, upstream, clientLeft);
      responses.clear();
      client.close(code, reason);
      upstream.socket.close(code === 1006 || code === 1005 ? 1000 : code, reason);
    };

    client.on('message', (data, isBinary) => {
      if (upstream.socket.readyState === WebSocket.OPEN) upstream.socket.send(data, { binary: isBinary });
    });
    const fromUpstream = (data: WebSocket.RawData, isBinary: boolean) => {
      if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
      if (!isBinary) this.follow(data.toString(), responses, upgrade, upstream, client, closeBoth);
    };
    upstream.socket.removeAllListeners('message');
    for (const { data, isBinary } of upstream.early.splice(0)) fromUpstream(data, isBinary);
    upstream.socket.on('message', fromUpstream);
    client.on('close', () => closeBoth(1000, 'client closed', true));
    upstream.socket.on('close', (code) => closeBoth(code === 1005 || code === 1006 ? 1011 : code, 'upstream closed'));
    client.on('error', () => closeBoth(1011, 'client error'));
    upstream.socket.on('error', () => closeBoth(1011, 'upstream error'));
    // The upstream may have gone while the client's upgrade was being accepted.
    if (upstream.socket.readyState !== WebSocket.OPEN) closeBoth(1011, 'upstream closed');
  }

  /** Reads one upstream event for billing: a response begins (hold), delivers text, or is done (settle). */
  private follow(frame: string, responses: Map<string, HeldResponse>, upgrade: IncomingMessage, upstream: RealtimeUpstream, client: WebSocket, closeBoth: (code: number, reason: string) => void): void {
    const event = parseSocketEvent(frame);
    if (!event) return;
    const response = event.response as JsonObject | undefined;
    if (event.type === 'response.created' && typeof response?.id === 'string') {
      const sink = new SocketEventSink(client);
      const prepared = this.hold(upgrade, upstream, sink).catch((error: unknown) => {
        // No quota, a limit, a disabled token: the session ends, as the next HTTP call would be refused.
        const relayError = error instanceof RelayError ? error : new RelayError('internal_error', 'The gateway failed to bill the response', 500);
        if (client.readyState === WebSocket.OPEN) client.send(socketErrorFrame(relayError, ''));
        closeBoth(1008, relayError.code);
        return undefined;
      });
      responses.set(response.id, { prepared, sink, text: '' });
      return;
    }
    const responseId = typeof event.response_id === 'string' ? event.response_id : typeof response?.id === 'string' ? response.id : undefined;
    const held = responseId === undefined ? undefined : responses.get(responseId);
    if (!held) return;
    held.firstByteAt ??= performance.now();
    if (TEXT_DELTAS.has(String(event.type)) && typeof event.delta === 'string') held.text += event.delta;
    if (event.type === 'response.done' && responseId !== undefined) {
      responses.delete(responseId);
      void this.settle(held, upstream, fullUsage(readUsage(response?.usage)));
    }
  }

  /** A response's hold, through the prepare stage as one HTTP call's, priced with the model's audio ratios. */
  private async hold(upgrade: IncomingMessage, upstream: RealtimeUpstream, sink: SocketEventSink): Promise<PreparedRequest> {
    const body = Buffer.from(JSON.stringify({ model: upstream.model }));
    const prepared = await this.prepareStage.prepareMessage(upgrade, body, sink, REALTIME_ROUTE, randomUUID(), performance.now());
    prepared.sheet = { ...prepared.sheet, ...this.pricing.audioRatios(upstream.model, prepared.sheet.completionRatio) };
    // The session's input is the upstream's to count: a response cut off is billed on the text it delivered only.
    prepared.body = undefined;
    prepared.tried.push(upstream.target.channel.id);
    return prepared;
  }

  private async settle(held: HeldResponse, upstream: RealtimeUpstream, usage: ReturnType<typeof fullUsage>): Promise<void> {
    const prepared = await held.prepared;
    held.sink.end();
    if (!prepared) return;
    this.settleStage.settle(prepared, { channel: upstream.target.channel, keyIndex: upstream.target.keyIndex ?? 0, upstreamModel: upstream.target.upstreamModel, usage, text: () => held.text, firstByteAt: held.firstByteAt });
  }

  /** A response cut off by either side: the text it delivered is billed, and nothing when it delivered nothing. */
  private async settleDelivered(held: HeldResponse, upstream: RealtimeUpstream, clientLeft: boolean): Promise<void> {
    const prepared = await held.prepared;
    held.sink.end();
    if (!prepared) return;
    // The client may have left while the hold was being taken, before the prepare stage listened for it.
    if (clientLeft) prepared.clientGone = () => true;
    if (held.text === '') {
      prepared.billing.refund();
      prepared.rateLimit?.release();
      prepared.callerLimit?.release();
      return;
    }
    this.settleStage.settle(prepared, { channel: upstream.target.channel, keyIndex: upstream.target.keyIndex ?? 0, upstreamModel: upstream.target.upstreamModel, text: () => held.text, firstByteAt: held.firstByteAt });
  }

  private targetOf(channel: RelayChannel, model: string, upgrade: IncomingMessage): UpstreamTarget | undefined {
    if (!channelTypeRow(channel.type)?.capabilities.includes('realtime')) return undefined;
    return { channel, ...drawKey(channel), endpoint: 'chat', upstreamModel: channel.modelMapping[model] || model, stream: true, clientHeaders: upgrade.headers };
  }

  private realtimeUrl(target: UpstreamTarget): URL | undefined {
    const adaptor = this.providers.forChannelType(target.channel.type);
    return adaptor && socketEndpoints(adaptor)?.realtimeUrl(target);
  }

  private async connect(target: UpstreamTarget, url: URL, early: SocketFrame[]): Promise<WebSocket> {
    const adaptor = this.providers.forChannelType(target.channel.type);
    if (!adaptor) throw new RelayError('channel:bad_response', 'The channel type is not supported by this gateway', 502);
    this.guard.assertUrlAllowed(httpSchemeUrl(url));
    const headers = await adaptor.buildHeaders(target, { url, body: '' });
    // The Realtime beta's header, when the client speaks the beta protocol.
    const beta = target.clientHeaders?.['openai-beta'];
    if (typeof beta === 'string') headers['openai-beta'] = beta;
    return openUpstreamSocket(url, { headers, lookup: this.guard.lookup, handshakeTimeoutMs: this.config.relay.timeoutMs, maxPayloadBytes: this.config.relay.maxResponseBodyBytes, early });
  }
}
