import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { channelTypeRow } from '../../channels/channel-types';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import type { AttemptTrace } from '../../tracing/relay-trace';
import { OptionsService } from '../../options/options.service';
import { chooseKeyIndex, recordKeyError, type RelayChannel } from '../caches/relay-channel';
import { CHANNEL_STATUS_ENABLED } from '../../channels/entities/channel.entity';
import { ChannelMonitorService } from '../../monitoring/channel-monitor.service';
import { pickChannel } from '../channel-selector';
import { ChannelHealthService } from '../../channel-health/channel-health.service';
import type { AttemptOutcome } from '../../channel-health/channel-health';
import { affinityKeyOf } from '../affinity/affinity-key';
import { ChannelAffinityService } from '../affinity/channel-affinity.service';
import type { ProviderCapability } from '../../channels/channel-types';
import type { JsonObject } from '../wire/wire-format';
import { answerErrorText, hasOwnTransport, readsErrorAnswers, servesResponses, takesClientFormat, type ProviderAdaptor, type UpstreamTarget } from '../providers/adaptor';
import { ProviderRegistry } from '../providers/provider-registry';
import { ModelFallbackService } from '../fallback/model-fallback.service';
import { budgetSpent } from '../fallback/model-fallbacks';
import { statefulRequestRefusal } from '../formats/responses.format';
import { RelayError } from '../relay-error';
import { endpointCapability } from '../relay-endpoints';
import { withMembers } from '../request-body';
import type { ClientResponse } from '../wire/client-stream-writers';
import { attemptsAllowed } from '../retry-policy';
import { mappedStatus, upstreamFailure } from '../upstream-error';
import { transportError, UpstreamClientService } from '../upstream-client.service';
import { clientGoneError, RelayDeliverStage, type AttemptResult, type UpstreamRefusal } from './deliver.stage';
import type { Delivery, PreparedRequest } from './relay-request';

const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * The second stage: choose a channel, prepare the attempt for its provider (body, signed
 * headers), call it, and fail over to another channel on the channel's faults, RetryTimes
 * more at most, never the same channel twice. When every channel of the model failed, its
 * fallback chain (ModelFallbackService) moves on to the next model.
 */
@Injectable()
export class RelayDispatchStage {
  private readonly logger = new Logger(RelayDispatchStage.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsService,
    private readonly monitor: ChannelMonitorService,
    private readonly upstream: UpstreamClientService,
    private readonly providers: ProviderRegistry,
    private readonly deliver: RelayDeliverStage,
    private readonly metrics: GatewayMetrics,
    private readonly health: ChannelHealthService,
    private readonly affinity: ChannelAffinityService,
    private readonly fallbacks: ModelFallbackService,
  ) {}

  /** Not async: without a chain the model's dispatch promise goes back as it is, with no extra turn. */
  dispatch(request: PreparedRequest, response: ClientResponse): Promise<Delivery> {
    const chain = this.fallbacks.chainFor(request);
    if (chain.length === 0) return this.dispatchModel(request, response, new Set(request.tried));
    // A fallback model starts afresh: a channel that failed the first model may serve the next.
    return this.fallbacks.dispatch(request, response, chain, (sink, fallback) => this.dispatchModel(request, sink, fallback ? new Set() : new Set(request.tried)));
  }

  /** The request's model on its channels: `passed` holds the channels not to try (tried already). */
  private async dispatchModel(request: PreparedRequest, response: ClientResponse, passed: Set<number>): Promise<Delivery> {
    const attempts = attemptsAllowed(this.options.get('RetryTimes'));
    const capability = endpointCapability(request.route.spec.endpoint);
    // Channels tried, and channels of a type that does not offer the endpoint (a rerank on a chat-only type): those are passed over without spending an attempt.
    const triedBefore = request.tried.length;
    let passedUnoffered = false;
    // A Responses request that needs the upstream's stored state (previous_response_id) goes only to channels whose upstream serves Responses.
    const stateful = request.route.spec.endpoint === 'responses' ? statefulRequestRefusal(request.body) : undefined;
    let passedStateless = false;
    let lastError: RelayError | undefined;
    // A session's calls go back to the channel that served it last, whose upstream holds its prompt cache.
    const affinityKey = this.affinity.enabled ? affinityKeyOf(request) : undefined;
    const preferred = affinityKey === undefined ? undefined : await this.affinity.channelFor(affinityKey);
    for (let attempt = 0; attempt < attempts; ) {
      if (request.deadline !== undefined && performance.now() >= request.deadline) {
        lastError ??= budgetSpent();
        break;
      }
      const channel = pickChannel(request.tiers, passed, { health: this.health, preferred });
      if (!channel) break;
      passed.add(channel.id);
      if (!offers(channelTypeRow(channel.type)?.capabilities, capability)) {
        passedUnoffered = true;
        continue;
      }
      if (stateful && !this.servesResponses(channel)) {
        passedStateless = true;
        continue;
      }
      attempt++;
      request.tried.push(channel.id);
      // Every attempt after the first is a retry (attempt counts this one already).
      if (attempt > 1 && this.metrics.enabled) this.metrics.retry();
      const attemptTrace = request.trace?.attempt(channel, attempt);
      const keyIndex = chooseKeyIndex(channel);
      channel.keyUsage.uses[keyIndex]++;
      this.health.attemptStarted(channel);
      const startedAt = performance.now();
      let result: AttemptResult;
      try {
        result = await this.attempt(request, channel, keyIndex, response, attemptTrace);
      } catch (error) {
        // Ends a breaker's probe, which would otherwise keep the channel waiting on it.
        this.health.attemptEnded(channel, 'neutral', 0);
        throw error;
      }
      attemptTrace?.end(result);
      if (result.ok) {
        // Latency to the first byte: a stream's length is the answer's, not the channel's speed.
        this.health.attemptEnded(channel, 'ok', (result.delivery.firstByteAt ?? performance.now()) - startedAt);
        if (affinityKey !== undefined) this.affinity.remember(affinityKey, channel.id);
        return result.delivery;
      }
      lastError = 'refused' in result ? this.refusal(channel, keyIndex, result.refused) : result.error;
      this.health.attemptEnded(channel, failureOutcome(result, lastError, request.clientGone()), 0);
      if (this.metrics.enabled) this.countUpstreamError(channel, result);
      this.logger.debug(`channel ${channel.id} failed: ${lastError.status} ${lastError.code}`);
      if (lastError.isChannelFault && channel.keys.length > 1) recordKeyError(channel, keyIndex, `${lastError.upstreamStatus ?? lastError.status}: ${lastError.message}`);
      if (lastError.skipRetry || request.clientGone()) break;
      // The key is out, not the channel: its other keys may serve the retry.
      if (channel.keyStatuses[keyIndex] !== CHANNEL_STATUS_ENABLED && channel.enabledKeys.length > 0) passed.delete(channel.id);
    }
    if (lastError) throw lastError;
    if (stateful && passedStateless && request.tried.length === triedBefore) throw stateful;
    if (passedUnoffered && request.tried.length === triedBefore) {
      throw new RelayError('invalid_request', `No channel serving the model ${request.model} in group ${request.caller.group} offers ${request.route.spec.path}`, 400);
    }
    throw new RelayError('no_available_channel', `No channel serves the model ${request.model} in group ${request.caller.group}`, 503);
  }

  private servesResponses(channel: RelayChannel): boolean {
    const adaptor = this.providers.forChannelType(channel.type);
    return adaptor !== undefined && servesResponses(adaptor, channel);
  }

  private async attempt(request: PreparedRequest, channel: RelayChannel, keyIndex: number, response: ClientResponse, trace: AttemptTrace | undefined): Promise<AttemptResult> {
    const adaptor = this.providers.forChannelType(channel.type);
    if (!adaptor) return failed(new RelayError('channel:bad_response', 'The channel type is not supported by this gateway', 502));
    const endpoint = request.route.spec.endpoint;
    const target: UpstreamTarget = {
      channel,
      key: channel.keys[keyIndex],
      keyIndex,
      // A Responses request to a channel whose upstream does not serve Responses goes up as a chat.
      endpoint: endpoint === 'responses' && !servesResponses(adaptor, channel) ? 'chat' : endpoint,
      upstreamModel: channel.modelMapping[request.model] || request.model,
      stream: request.stream,
      clientHeaders: request.headers,
    };
    let answer;
    try {
      // Inside the try: a base URL that does not make a URL, or a malformed channel key (Bedrock's region, Vertex's project), is this channel's fault, and fails over.
      const url = adaptor.buildUrl(target);
      if (!url) return failed(new RelayError('channel:bad_response', `The channel does not offer ${request.route.spec.path}`, 502));
      const body = await this.outgoingBytes(adaptor, target, request);
      const headers = await adaptor.buildHeaders(target, { url, body });
      // A signing adaptor has already set (and signed) the content type.
      headers['content-type'] ??= body === request.rawBody ? request.contentType : 'application/json';
      // After signing: traceparent is not among the headers a signature covers.
      trace?.sending(target.upstreamModel, headers);
      // A request with a fallback chain waits no longer than what is left of its one RELAY_TIMEOUT.
      const timeoutMs = request.deadline === undefined ? this.config.relay.timeoutMs : Math.max(1, Math.ceil(request.deadline - performance.now()));
      const call = {
        url,
        method: 'POST' as const,
        headers,
        body,
        signal: request.abort,
        headersTimeoutMs: timeoutMs,
        bodyTimeoutMs: request.stream ? this.config.relay.streamingTimeoutMs : timeoutMs,
      };
      answer = hasOwnTransport(adaptor) ? await adaptor.call(target, call) : await this.upstream.relay(call);
    } catch (error) {
      if (error instanceof RelayError) return failed(error);
      if (request.clientGone()) return failed(clientGoneError());
      return failed(transportError(error));
    }
    trace?.answered(answer.statusCode);

    if (answer.statusCode >= 300 && answer.statusCode < 400) {
      // The relay follows no redirect (the key would travel to another host): the channel is at fault.
      answer.destroy();
      return failed(new RelayError('channel:bad_response', 'The upstream answered with a redirect, which the gateway does not follow', 502));
    }
    if (answer.statusCode >= 400) {
      const text = await readLimited(answer.body, ERROR_BODY_LIMIT).catch(() => '');
      return { ok: false, refused: providerRefusal(adaptor, answer.statusCode, text) };
    }
    return this.deliver.deliver(request, adaptor, target, answer, response);
  }

  /** A failed attempt that was the channel's doing: its upstream status, or what went wrong (timeout, connection_error, …). */
  private countUpstreamError(channel: RelayChannel, result: Exclude<AttemptResult, { ok: true }>): void {
    if ('refused' in result) this.metrics.upstreamError(channel.id, result.refused.status);
    else if (result.error.isChannelFault) this.metrics.upstreamError(channel.id, result.error.code.slice('channel:'.length));
  }

  /**
   * An upstream's error answer (an error status, or an error inside a 2xx answer) as the
   * attempt's error, disabling the channel when the error says its account is broken.
   */
  private refusal(channel: RelayChannel, keyIndex: number, refused: UpstreamRefusal): RelayError {
    // The channel's status_code_mapping speaks first: retry and auto-disable see the mapped status.
    const status = mappedStatus(channel, refused.status);
    const disable = this.monitor.shouldDisable(channel, status, refused.text);
    if (disable) {
      // A multi-key channel loses the key alone; the cache drops it from the draw before this returns.
      this.monitor.disableKey(channel, keyIndex, `status ${refused.status}: ${refused.text.slice(0, 300)}`).catch((error: Error) => this.logger.error(`disabling channel ${channel.id} failed: ${error.message}`));
    }
    return upstreamFailure(channel, status, refused.text, disable);
  }

  /**
   * The body to send: the client's own bytes when this channel changes nothing in them, or
   * always when the administrator turned request pass-through on (global.pass_through_request_enabled:
   * no conversion, mapping or override, as new-api does).
   */
  private async outgoingBytes(adaptor: ProviderAdaptor, target: UpstreamTarget, request: PreparedRequest): Promise<string | Buffer> {
    if (!request.body || this.options.get('global.pass_through_request_enabled')) return request.rawBody;
    if (!takesClientFormat(adaptor, target, request.route.inbound.wire)) {
      const body = withGatewaySettings(target, request.route.inbound.toOpenAIRequest(request.body));
      body.model = request.model;
      if (request.stream) body.stream = true;
      return JSON.stringify(Object.assign(await adaptor.convertRequest(target, body), target.channel.paramOverride));
    }
    return this.ownFormatBytes(adaptor, target, request.body, request.rawBody, request.route.pathModel !== undefined, request.route.inbound.wire === 'openai');
  }

  /**
   * The client's body for a channel of its own format: the client's own bytes when the channel
   * changes nothing in them, those bytes with members appended when it only adds fields, and
   * otherwise a copy with the upstream model, the settings and param_override, serialised.
   * The settings apply to OpenAI bodies, whichever format the channel names (DashScope's
   * compatible mode takes them as they are).
   */
  private ownFormatBytes(adaptor: ProviderAdaptor, target: UpstreamTarget, clientBody: JsonObject, rawBody: Buffer, modelInPath: boolean, openAIBody: boolean): string | Buffer {
    const overrides = Object.keys(target.channel.paramOverride).length > 0;
    const settings = openAIBody && needsGatewaySettings(target, clientBody);
    const sameModel = modelInPath || clientBody.model === target.upstreamModel;
    if (!settings && !overrides && sameModel) {
      if (adaptor.keepsClientBody(target, clientBody)) return rawBody;
      // A stream's usage request: appending it costs a copy of the bytes, where serialising a long conversation again cost far more.
      const added = adaptor.addedMembers?.(target, clientBody);
      if (added !== undefined) return withMembers(rawBody, added);
    }
    // Object.assign, not a spread: spreading an object from JSON.parse copied it twice as slowly (2.5 µs against 1.2 µs with the stringify).
    const copy = Object.assign({}, clientBody);
    const body = settings ? withGatewaySettings(target, copy) : copy;
    return JSON.stringify(Object.assign(adaptor.fitRequest(target, body), target.channel.paramOverride));
  }
}

/** Whether a type's capabilities serve the endpoint's: any chat channel serves Responses, converted when it must be. */
function offers(capabilities: readonly ProviderCapability[] | undefined, capability: ProviderCapability): boolean {
  if (!capabilities) return false;
  return capabilities.includes(capability) || (capability === 'responses' && capabilities.includes('chat'));
}

/** Whether a failed attempt counts against the channel's health: its faults and upstream 5xx (504 included) do; the client's own errors and a client gone do not. */
function failureOutcome(result: Exclude<AttemptResult, { ok: true }>, error: RelayError, clientGone: boolean): AttemptOutcome {
  if (clientGone) return 'neutral';
  if (error.isChannelFault) return 'fault';
  return 'refused' in result && result.refused.status >= 500 ? 'fault' : 'neutral';
}

function failed(error: RelayError): AttemptResult {
  return { ok: false, error };
}

/** An error answer, read in the provider's terms when its adaptor knows its error shape (ErrorAnswers), else as it came. */
function providerRefusal(adaptor: ProviderAdaptor, status: number, text: string): UpstreamRefusal {
  if (!readsErrorAnswers(adaptor)) return { status, text };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { status, text };
  }
  const error = adaptor.errorAnswer(status, body);
  return error ? { status: error.status, text: answerErrorText(error) } : { status, text };
}

/** Whether the body carries the playground's `group` or lacks the channel's system prompt. */
function needsGatewaySettings(target: UpstreamTarget, body: JsonObject): boolean {
  return (target.endpoint === 'chat' && 'group' in body) || systemPromptToAdd(target, body) !== undefined;
}

/** An OpenAI-format body (a private copy) without our own fields, with the channel's system prompt. */
function withGatewaySettings(target: UpstreamTarget, body: JsonObject): JsonObject {
  // `group` picks the playground's group; it is ours, not the provider's.
  if (target.endpoint === 'chat') delete body.group;
  const systemPrompt = systemPromptToAdd(target, body);
  if (systemPrompt !== undefined) body.messages = [{ role: 'system', content: systemPrompt }, ...(body.messages as JsonObject[])];
  return body;
}

/** The channel's system prompt, for a chat that brings no system message of its own. */
function systemPromptToAdd(target: UpstreamTarget, body: JsonObject): string | undefined {
  const systemPrompt = target.channel.setting.system_prompt;
  if (target.endpoint !== 'chat' || !systemPrompt || !Array.isArray(body.messages)) return undefined;
  return (body.messages as JsonObject[]).some((message) => message?.role === 'system') ? undefined : systemPrompt;
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, limit);
}
