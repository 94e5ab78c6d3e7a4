import { Inject, Injectable, Logger } from '@nestjs/common';
import WebSocket from 'ws';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { OutboundGuardService } from '../../outbound/outbound-guard.service';
import { OptionsService } from '../../options/options.service';
import { drawKey, type RelayChannel } from '../caches/relay-channel';
import { pickChannel } from '../channel-selector';
import type { JsonObject } from '../wire/wire-format';
import { socketEndpoints, type ProviderAdaptor, type UpstreamTarget } from '../providers/adaptor';
import { readUsage } from '../wire/openai-usage';
import { ProviderRegistry } from '../providers/provider-registry';
import { httpSchemeUrl } from '../providers/socket-url';
import { UsageMeter } from '../wire/usage';
import { RelayError } from '../relay-error';
import type { SocketDispatch } from '../relay.service';
import { clientGoneError } from '../stages/deliver.stage';
import { RelayDispatchStage } from '../stages/dispatch.stage';
import type { Delivery, PreparedRequest } from '../stages/relay-request';
import { upstreamFailure } from '../upstream-error';
import { socketErrorFrame } from './socket-errors';
import { parseSocketEvent, type SocketEventSink } from './socket-event-sink';
import { openUpstreamSocket, UpgradeRefusedError } from './upstream-socket';

/** A channel whose upstream refused the upgrade is reached over HTTP for this long before the upgrade is tried again. */
const REFUSED_UPGRADE_MS = 10 * 60_000;

/** The events that end one response on a Responses socket. */
const LAST_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

/** One client session's upstream sockets, by channel: a long-lived client socket keeps its upstream one. */
export type UpstreamSockets = Map<number, WebSocket>;

/**
 * Responses over WebSocket, client to upstream: when the channel the tiers choose may serve
 * Responses over WebSocket (its row's `responses_websocket` capability and a Responses
 * upstream), the `response.create` goes up that socket (opened once per session and channel)
 * and its events come back frame for frame, usage read on the way. An upstream that refuses the
 * upgrade is remembered for a while, and the call, like every other, takes the HTTP dispatch
 * (pass-through or converted, with failover).
 */
@Injectable()
export class ResponsesSocketBridge {
  private readonly logger = new Logger(ResponsesSocketBridge.name);
  private readonly refusedUntil = new Map<number, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsService,
    private readonly providers: ProviderRegistry,
    private readonly guard: OutboundGuardService,
    private readonly dispatchStage: RelayDispatchStage,
  ) {}

  /** How one call of the session is answered: an upstream socket when the channel offers one, else the HTTP dispatch. */
  dispatcher(upstreams: UpstreamSockets, sink: SocketEventSink): SocketDispatch {
    return async (prepared) => (await this.throughUpstreamSocket(prepared, upstreams, sink)) ?? this.dispatchStage.dispatch(prepared, sink);
  }

  private async throughUpstreamSocket(prepared: PreparedRequest, upstreams: UpstreamSockets, sink: SocketEventSink): Promise<Delivery | undefined> {
    if (!prepared.body || this.options.get('global.pass_through_request_enabled')) return undefined;
    const channel = pickChannel(prepared.tiers, new Set());
    if (!channel || (this.refusedUntil.get(channel.id) ?? 0) > Date.now()) return undefined;
    const adaptor = this.providers.forChannelType(channel.type);
    const target: UpstreamTarget = { channel, ...drawKey(channel), endpoint: 'responses', upstreamModel: channel.modelMapping[prepared.model] || prepared.model, stream: true, clientHeaders: prepared.headers };
    const url = adaptor && socketEndpoints(adaptor)?.responsesSocketUrl(target);
    if (!adaptor || !url) return undefined;
    let upstream = upstreams.get(channel.id);
    if (upstream?.readyState !== WebSocket.OPEN) {
      try {
        upstream = await this.connect(adaptor, target, url);
      } catch (error) {
        if (error instanceof UpgradeRefusedError) this.refusedUntil.set(channel.id, Date.now() + REFUSED_UPGRADE_MS);
        this.logger.debug(`channel ${channel.id}: no upstream WebSocket (${error instanceof Error ? error.message : String(error)}), answering over HTTP`);
        return undefined;
      }
      upstreams.set(channel.id, upstream);
      upstream.once('close', () => upstreams.delete(channel.id));
    }
    return this.exchange(upstream, createFrame(adaptor, target, prepared.body), prepared, target, adaptor, sink);
  }

  private async connect(adaptor: ProviderAdaptor, target: UpstreamTarget, url: URL): Promise<WebSocket> {
    this.guard.assertUrlAllowed(httpSchemeUrl(url));
    const headers = await adaptor.buildHeaders(target, { url, body: '' });
    const beta = target.clientHeaders?.['openai-beta'];
    if (typeof beta === 'string') headers['openai-beta'] = beta;
    return openUpstreamSocket(url, { headers, lookup: this.guard.lookup, handshakeTimeoutMs: this.config.relay.timeoutMs, maxPayloadBytes: this.config.relay.maxResponseBodyBytes });
  }

  /**
   * Sends one `response.create` up and passes its events to the client until the one that ends
   * it. Resolves the delivery; undefined when the upstream socket went away before any event
   * (the HTTP dispatch answers then). An `error` event before any other is the attempt's error.
   * A client or upstream gone mid-response is billed for what was delivered.
   */
  private exchange(upstream: WebSocket, frame: string, prepared: PreparedRequest, target: UpstreamTarget, adaptor: ProviderAdaptor, sink: SocketEventSink): Promise<Delivery | undefined> {
    return new Promise((resolve, reject) => {
      const usage = new UsageMeter();
      let text = '';
      let firstByteAt: number | undefined;
      let idle: NodeJS.Timeout | undefined;
      const delivery = (): Delivery => ({ channel: target.channel, keyIndex: target.keyIndex ?? 0, upstreamModel: target.upstreamModel, usage: usage.total, text: () => text, firstByteAt });
      const finish = (outcome: () => void) => {
        clearTimeout(idle);
        upstream.off('message', onMessage);
        upstream.off('close', onClose);
        sink.off('close', onClientGone);
        outcome();
      };
      const onMessage = (data: WebSocket.RawData) => {
        const frameText = data.toString();
        const event = parseSocketEvent(frameText);
        if (firstByteAt === undefined && event?.type === 'error') return finish(() => reject(errorEvent(target.channel, event)));
        if (firstByteAt === undefined) {
          firstByteAt = performance.now();
          prepared.tried.push(target.channel.id);
        }
        armIdleTimer();
        sink.sendFrame(frameText);
        const reading = adaptor.parseStreamEvent(frameText);
        if (reading) {
          text += reading.text;
          usage.add(reading.usage);
        }
        if (event && LAST_EVENTS.has(String(event.type))) {
          // parseStreamEvent reads response.completed; the others carry what was spent too.
          if (event.type !== 'response.completed') usage.add(readUsage((event.response as JsonObject | undefined)?.usage));
          finish(() => resolve(delivery()));
          sink.end();
        }
      };
      const onClose = () => finish(() => (firstByteAt === undefined ? resolve(undefined) : endBroken()));
      const onClientGone = () => {
        upstream.close();
        finish(() => (firstByteAt === undefined ? reject(clientGoneError()) : resolve(delivery())));
      };
      /** The upstream broke off mid-response: the client learns it, and what went out is billed. */
      const endBroken = () => {
        sink.sendFrame(socketErrorFrame(new RelayError('channel:server_error', 'The upstream closed the response before its end', 502), prepared.requestId));
        sink.end();
        resolve(delivery());
      };
      const armIdleTimer = () => {
        clearTimeout(idle);
        idle = setTimeout(() => upstream.terminate(), firstByteAt === undefined ? this.config.relay.timeoutMs : this.config.relay.streamingTimeoutMs);
      };
      upstream.on('message', onMessage);
      upstream.once('close', onClose);
      sink.once('close', onClientGone);
      armIdleTimer();
      upstream.send(frame);
    });
  }
}

/** The client's body for the upstream socket: the channel's model and overrides, without the HTTP-only `stream`. */
function createFrame(adaptor: ProviderAdaptor, target: UpstreamTarget, body: JsonObject): string {
  const fitted = Object.assign(adaptor.fitRequest(target, Object.assign({}, body)), target.channel.paramOverride);
  delete fitted.stream;
  delete fitted.stream_options;
  return JSON.stringify({ ...fitted, type: 'response.create' });
}

/** An upstream `error` event before the response began, as the relay's error for its status. */
function errorEvent(channel: RelayChannel, event: JsonObject): RelayError {
  const status = typeof event.status === 'number' && event.status >= 400 && event.status <= 599 ? event.status : 502;
  return upstreamFailure(channel, status, JSON.stringify({ error: event.error }), false);
}
