import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { runLimited } from '../../common/jobs/run-limited';
import { channelKeys, channelTypeRow } from '../channels/channel-types';
import { CHANNEL_STATUS_AUTO_DISABLED, CHANNEL_STATUS_ENABLED } from '../channels/entities/channel.entity';
import { outboundRefusal, refusalToAppError } from '../outbound/outbound-guard.service';
import { ChannelCacheService } from '../relay/caches/channel-cache.service';
import { channelKeyFields, chooseKeyIndex, pickKey, type RelayChannel } from '../relay/caches/relay-channel';
import { ProviderRegistry } from '../relay/providers/provider-registry';
import type { JsonObject } from '../relay/wire/wire-format';
import { answerErrorText, canListModels, hasKnownModels, hasOwnTransport, readsAnswerErrors, readsErrorAnswers, type AnswerError, type ProviderAdaptor, type UpstreamTarget } from '../relay/providers/adaptor';
import type { RelayEndpoint } from '../relay/relay-endpoints';
import { RelayError } from '../relay/relay-error';
import { scrubUpstreamMessage, readUpstreamError } from '../relay/upstream-error';
import { UpstreamClientService } from '../relay/upstream-client.service';
import { ChannelMonitorService } from './channel-monitor.service';
import type { ProbeOutcome, ProbeResult } from './probe-outcome';

/** A channel's models: from the upstream's list, or (`known`) the models the gateway knows a provider without a list API serves. */
export interface FetchedModels {
  models: string[];
  known: boolean;
}

const PROBE_TIMEOUT_MS = 30_000;
/** Channels tested at once: enough to finish hundreds within a period, few enough to stay polite. */
const TEST_CONCURRENCY = 5;
/** How long the admin's "test all" may run. */
const TEST_ALL_LIMIT_MS = 10 * 60_000;
const DEFAULT_TEST_MODEL = 'gpt-4o-mini';

/** Admin probes of channels: a tiny real chat request, and the upstream's model list. */
@Injectable()
export class ChannelProbeService {
  private readonly logger = new Logger(ChannelProbeService.name);
  private testingAll = false;

  constructor(
    private readonly channels: ChannelCacheService,
    private readonly monitor: ChannelMonitorService,
    private readonly upstream: UpstreamClientService,
    private readonly providers: ProviderRegistry,
  ) {}

  /**
   * The admin's test of one channel: the same rules as the scheduled tests apply to its outcome.
   * A multi-key channel is tested with the key the relay would draw next, or while none is
   * enabled, with its first auto-disabled key.
   */
  async testChannel(id: number, model?: string): Promise<ProbeResult> {
    const channel = this.channels.channel(id);
    if (!channel) throw new AppError('relay.channel_not_found');
    const autoDisabled = channel.keyStatuses.indexOf(CHANNEL_STATUS_AUTO_DISABLED);
    return this.testKeyOf(channel, channel.enabledKeys.length === 0 && autoDisabled >= 0 ? autoDisabled : chooseKeyIndex(channel), model);
  }

  /** The admin's test of one key of a channel: a pass brings an auto-disabled key back, as the scheduled test does. */
  async testKey(id: number, keyIndex: number, model?: string): Promise<ProbeResult> {
    const channel = this.channels.channel(id);
    if (!channel) throw new AppError('relay.channel_not_found');
    if (!Number.isInteger(keyIndex) || keyIndex < 0 || keyIndex >= channel.keys.length) throw new AppError('channel.key_not_found');
    return this.testKeyOf(channel, keyIndex, model);
  }

  private async testKeyOf(channel: RelayChannel, keyIndex: number, model: string | undefined): Promise<ProbeResult> {
    const outcome = await this.probe(channel, keyIndex, model, PROBE_TIMEOUT_MS);
    await this.monitor.applyTestOutcome(channel, outcome, keyIndex);
    return { success: outcome.success, message: outcome.message, time: outcome.time };
  }

  /**
   * Tests every enabled and auto-disabled channel, a few at a time, and applies the disable
   * and re-enable rules. Nothing starts after `deadline` (epoch ms) and no test outlives it,
   * so one slow upstream cannot stall a scheduled run past its period. Answers how many tests ran
   * (one per key of a multi-key channel);
   * 0 when a run is already going.
   */
  async testAll(deadline = Date.now() + TEST_ALL_LIMIT_MS): Promise<number> {
    if (this.testingAll) return 0;
    this.testingAll = true;
    try {
      const tests = this.channels
        .allChannels()
        .filter((channel) => channel.status === CHANNEL_STATUS_ENABLED || channel.status === CHANNEL_STATUS_AUTO_DISABLED)
        .flatMap((channel) => testedKeys(channel).map((keyIndex) => ({ channel, keyIndex })));
      const timeout = () => Math.min(PROBE_TIMEOUT_MS, deadline - Date.now());
      return await runLimited(tests, TEST_CONCURRENCY, async ({ channel, keyIndex }) => this.monitor.applyTestOutcome(channel, await this.probe(channel, keyIndex, undefined, timeout()), keyIndex), {
        keepGoing: () => Date.now() < deadline,
        onError: ({ channel, keyIndex }, error) => this.logger.warn(`testing channel ${channel.id} (key #${keyIndex}) failed: ${error instanceof Error ? error.message : String(error)}`),
      });
    } finally {
      this.testingAll = false;
    }
  }

  /** Starts testAll in the background (the admin's "test all" button) and returns at once. */
  startTestAll(): void {
    void this.testAll().catch((error: Error) => this.logger.warn(`testing all channels failed: ${error.message}`));
  }

  /**
   * Sends one short request through the channel's adaptor (a chat, or for a type without chat
   * its embeddings or rerank, as the catalogue row offers); records its response time when it passes.
   */
  private async probe(channel: RelayChannel, keyIndex: number, model: string | undefined, timeoutMs: number): Promise<ProbeOutcome> {
    const adaptor = this.providers.forChannelType(channel.type);
    if (!adaptor) throw new AppError('relay.channel_type_unsupported');
    const testModel = model?.trim() || channel.testModel || channel.models[0] || DEFAULT_TEST_MODEL;
    const probeRequest = probeRequestFor(channel.type, testModel);
    const target: UpstreamTarget = { channel, key: channel.keys[keyIndex], keyIndex, endpoint: probeRequest.endpoint, upstreamModel: channel.modelMapping[testModel] || testModel, stream: false };
    const started = performance.now();
    let status = 0;
    let text = '';
    try {
      const url = adaptor.buildUrl(target);
      if (!url) throw new AppError('relay.channel_type_unsupported');
      const body = JSON.stringify(await adaptor.convertRequest(target, probeRequest.body));
      const headers = await adaptor.buildHeaders(target, { url, body });
      const call = { url, method: 'POST' as const, headers: { ...headers, 'content-type': 'application/json' }, body, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs };
      if (hasOwnTransport(adaptor)) {
        const answer = await adaptor.call(target, call);
        status = answer.statusCode;
        text = ((await answer.collect(PROBE_ANSWER_LIMIT)) ?? Buffer.alloc(0)).toString('utf8');
      } else {
        const answer = await this.upstream.send(call);
        status = answer.statusCode;
        text = await answer.body.text();
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      const refused = outboundRefusal(error);
      if (refused) throw refusalToAppError(refused);
      // The adaptor's own refusals (a malformed key, a token exchange refused) say what is wrong.
      const message = error instanceof RelayError ? error.message : 'could not reach the upstream';
      return { success: false, message, time: secondsSince(started), errorText: '' };
    }
    const elapsedMs = performance.now() - started;
    const time = secondsSince(started);
    // Some providers answer an error with status 200 (Baidu's error_code, MiniMax's base_resp), or name it in codes of their own (Zhipu's): judged as the relay judges them.
    const answerError = reportedError(adaptor, status, text);
    if (answerError) {
      const errorText = answerErrorText(answerError);
      return { success: false, message: `status ${answerError.status}: ${scrubUpstreamMessage(answerError.message, channel)}`, time, status: answerError.status, errorText };
    }
    if (status >= 400) {
      return { success: false, message: `status ${status}: ${scrubUpstreamMessage(readUpstreamError(text).message, channel)}`, time, status, errorText: text };
    }
    await this.monitor.recordTest(channel.id, elapsedMs);
    return { success: true, message: '', time };
  }

  fetchModelsOfChannel(id: number): Promise<FetchedModels> {
    const channel = this.channels.channel(id);
    if (!channel) throw new AppError('relay.channel_not_found');
    return this.fetchModels(channel);
  }

  /** For a channel being created: its type, base URL and key as typed in the form. */
  fetchModelsFor(input: { type: number; baseUrl: string; key: string }): Promise<FetchedModels> {
    if (!input.key.trim()) throw new AppError('relay.fetch_models_need_key');
    const channel: RelayChannel = {
      id: 0,
      name: '',
      type: input.type,
      status: CHANNEL_STATUS_ENABLED,
      ...channelKeyFields(channelKeys(input.type, input.key).slice(0, 1), {}),
      baseUrl: input.baseUrl.trim().replace(/\/+$/, ''),
      openaiOrganization: '',
      other: '',
      autoBan: false,
      priority: 0,
      weight: 0,
      testModel: '',
      models: [],
      modelMapping: {},
      statusCodeMapping: {},
      paramOverride: {},
      setting: {},
    };
    return this.fetchModels(channel);
  }

  private async fetchModels(channel: RelayChannel): Promise<FetchedModels> {
    const adaptor = this.providers.forChannelType(channel.type);
    if (adaptor && hasKnownModels(adaptor)) return { models: [...adaptor.knownModels(channel)], known: true };
    if (!adaptor || !canListModels(adaptor)) throw new AppError('relay.channel_type_unsupported');
    const target: UpstreamTarget = { channel, key: pickKey(channel), endpoint: 'chat', upstreamModel: '', stream: false };
    let status: number;
    let text: string;
    try {
      const url = adaptor.modelsUrl(channel);
      const headers = await adaptor.buildHeaders(target, { url, body: '' });
      const answer = await this.upstream.send({ url, method: 'GET', headers, headersTimeoutMs: PROBE_TIMEOUT_MS, bodyTimeoutMs: PROBE_TIMEOUT_MS });
      status = answer.statusCode;
      text = await answer.body.text();
    } catch (error) {
      const refused = outboundRefusal(error);
      if (refused) throw refusalToAppError(refused);
      throw new AppError('relay.fetch_models_failed', { message: 'could not reach the upstream' });
    }
    if (status >= 400) throw new AppError('relay.fetch_models_failed', { message: `status ${status}: ${scrubUpstreamMessage(readUpstreamError(text).message, channel)}` });
    try {
      return { models: adaptor.parseModelList(JSON.parse(text)), known: false };
    } catch {
      throw new AppError('relay.fetch_models_failed', { message: 'the upstream answered with invalid JSON' });
    }
  }

}

/**
 * The keys a scheduled test tries: a single-key channel's key, and of a multi-key channel every
 * key an admin has not disabled (an auto-disabled one that passes comes back).
 */
function testedKeys(channel: RelayChannel): number[] {
  if (channel.keys.length <= 1) return [0];
  return channel.keyStatuses.flatMap((status, index) => (status === CHANNEL_STATUS_ENABLED || status === CHANNEL_STATUS_AUTO_DISABLED ? [index] : []));
}

/** The test request for a type: a short chat, or the endpoint an embeddings or rerank type offers instead. */
function probeRequestFor(type: number, model: string): { endpoint: RelayEndpoint; body: JsonObject } {
  const capabilities = channelTypeRow(type)?.capabilities ?? [];
  if (!capabilities.includes('chat') && capabilities.includes('embeddings')) return { endpoint: 'embeddings', body: { model, input: ['hi'] } };
  if (!capabilities.includes('chat') && capabilities.includes('rerank')) return { endpoint: 'rerank', body: { model, query: 'hi', documents: ['hi'] } };
  return { endpoint: 'chat', body: { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 } };
}

/** A channel test's answer is short; past this it is cut (a transport of the adaptor's own answers like undici's). */
const PROBE_ANSWER_LIMIT = 1024 * 1024;

/** The error an answer reports in the relay's terms: inside a 2xx (AnswerErrors), or in the provider's own codes under an error status (ErrorAnswers). */
function reportedError(adaptor: ProviderAdaptor, status: number, text: string): AnswerError | undefined {
  const body = parseJsonOrUndefined(text);
  if (status < 400) return readsAnswerErrors(adaptor) ? adaptor.answerError(body) : undefined;
  return readsErrorAnswers(adaptor) ? adaptor.errorAnswer(status, body) : undefined;
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function secondsSince(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}
