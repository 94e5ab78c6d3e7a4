import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { CHANNEL_STATUS_ENABLED } from '../channels/entities/channel.entity';
import { ChannelCacheService } from './caches/channel-cache.service';
import { pickKey, type RelayChannel } from './caches/relay-channel';
import { ChannelMonitorService } from './channel-monitor.service';
import { ProviderRegistry } from './providers/provider-registry';
import { canListModels, type UpstreamTarget } from './providers/adaptor';
import { scrubUpstreamMessage, readUpstreamError } from './upstream-error';
import { refusalToAppError } from '../outbound/outbound-guard.service';
import { outboundRefusal, UpstreamClientService } from './upstream-client.service';

export interface ProbeResult {
  success: boolean;
  message: string;
  /** Seconds the test request took. */
  time: number;
}

const PROBE_TIMEOUT_MS = 30_000;
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

  /** Sends one short chat request through the channel's adaptor and records its response time. */
  async testChannel(id: number, model?: string): Promise<ProbeResult> {
    const channel = this.channels.channel(id);
    if (!channel) throw new AppError('relay.channel_not_found');
    const adaptor = this.providers.forChannelType(channel.type);
    if (!adaptor) throw new AppError('relay.channel_type_unsupported');
    const testModel = model?.trim() || channel.testModel || channel.models[0] || DEFAULT_TEST_MODEL;
    const target: UpstreamTarget = { channel, key: pickKey(channel), endpoint: 'chat', upstreamModel: channel.modelMapping[testModel] || testModel, stream: false };
    const url = adaptor.buildUrl(target);
    if (!url) throw new AppError('relay.channel_type_unsupported');
    const started = performance.now();
    let status = 0;
    let text = '';
    try {
      const body = JSON.stringify(await adaptor.convertRequest(target, { model: testModel, messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 }));
      const headers = await adaptor.buildHeaders(target, { url, body });
      const answer = await this.upstream.send({
        url,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
        headersTimeoutMs: PROBE_TIMEOUT_MS,
        bodyTimeoutMs: PROBE_TIMEOUT_MS,
      });
      status = answer.statusCode;
      text = await answer.body.text();
    } catch (error) {
      const refused = outboundRefusal(error);
      if (refused) throw refusalToAppError(refused);
      return { success: false, message: 'could not reach the upstream', time: secondsSince(started) };
    }
    const elapsedMs = performance.now() - started;
    const time = secondsSince(started);
    if (status >= 400) {
      if (this.monitor.shouldDisable(channel, status, text)) await this.monitor.disableChannel(channel, `test, status ${status}: ${text.slice(0, 300)}`);
      return { success: false, message: `status ${status}: ${scrubUpstreamMessage(readUpstreamError(text).message, channel)}`, time };
    }
    await this.monitor.recordTest(channel.id, elapsedMs);
    return { success: true, message: '', time };
  }

  /** Starts testing every enabled channel, one after another, and returns at once. */
  testAllEnabled(): void {
    if (this.testingAll) return;
    this.testingAll = true;
    const enabled = this.channels.allChannels().filter((channel) => channel.status === CHANNEL_STATUS_ENABLED);
    void (async () => {
      try {
        for (const channel of enabled) {
          await this.testChannel(channel.id).catch((error: Error) => this.logger.warn(`testing channel ${channel.id} failed: ${error.message}`));
        }
      } finally {
        this.testingAll = false;
      }
    })();
  }

  fetchModelsOfChannel(id: number): Promise<string[]> {
    const channel = this.channels.channel(id);
    if (!channel) throw new AppError('relay.channel_not_found');
    return this.fetchModels(channel);
  }

  /** For a channel being created: its type, base URL and key as typed in the form. */
  fetchModelsFor(input: { type: number; baseUrl: string; key: string }): Promise<string[]> {
    if (!input.key.trim()) throw new AppError('relay.fetch_models_need_key');
    const channel: RelayChannel = {
      id: 0,
      name: '',
      type: input.type,
      status: CHANNEL_STATUS_ENABLED,
      keys: [input.key.split('\n')[0].trim()],
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

  private async fetchModels(channel: RelayChannel): Promise<string[]> {
    const adaptor = this.providers.forChannelType(channel.type);
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
      return adaptor.parseModelList(JSON.parse(text));
    } catch {
      throw new AppError('relay.fetch_models_failed', { message: 'the upstream answered with invalid JSON' });
    }
  }

}

function secondsSince(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}
