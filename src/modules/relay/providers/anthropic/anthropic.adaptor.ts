import { Injectable } from '@nestjs/common';
import { defaultBaseUrl, CHANNEL_TYPE } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import type { JsonObject } from '../../wire/wire-format';
import type { ModelListing, NativeAdaptor, OutgoingCall, ProviderAdaptor, TokenCounting, UpstreamTarget } from '../adaptor';
import { ANTHROPIC_VERSION, claudeRequestFromOpenAI } from '../claude/claude-messages';
import { ClaudeAnswers } from '../claude/claude-answers';
import { ClaudeSettings } from '../claude/claude-settings';

/**
 * Anthropic's Messages API (channel type 14). Claude clients pass straight through; OpenAI
 * chat requests convert to Messages and back.
 */
@Injectable()
export class AnthropicAdaptor extends ClaudeAnswers implements NativeAdaptor, ModelListing, TokenCounting {
  readonly channelTypes = [CHANNEL_TYPE.ANTHROPIC];
  readonly format = 'claude';

  constructor(private readonly settings: ClaudeSettings) {
    super();
  }

  buildUrl(target: UpstreamTarget): URL | undefined {
    if (target.endpoint !== 'chat') return undefined;
    return new URL(`${baseUrl(target.channel)}/v1/messages`);
  }

  buildHeaders(target: UpstreamTarget, _call?: OutgoingCall): Record<string, string> {
    const client = target.clientHeaders ?? {};
    const headers: Record<string, string> = {
      'x-api-key': target.key,
      'anthropic-version': typeof client['anthropic-version'] === 'string' ? client['anthropic-version'] : ANTHROPIC_VERSION,
      ...this.settings.modelHeaders(target.upstreamModel),
    };
    const betas = this.settings.betas(target.upstreamModel, client['anthropic-beta'], target.channel.type);
    if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
    return headers;
  }

  /** A Claude client's body: the upstream model, max_tokens when missing, and the thinking adapter for a `-thinking` model. */
  fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject {
    body.model = this.settings.claudeModel(target.upstreamModel);
    this.settings.fitClientBody(body, target.upstreamModel);
    return body;
  }

  keepsClientBody(target: UpstreamTarget, body: JsonObject): boolean {
    return typeof body.max_tokens === 'number' && this.settings.thinkingShareFor(target.upstreamModel) === undefined;
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    return Promise.resolve(claudeRequestFromOpenAI(body, this.settings.requestOptions(target.upstreamModel)));
  }

  countTokensUrl(channel: RelayChannel): URL {
    return new URL(`${baseUrl(channel)}/v1/messages/count_tokens`);
  }

  modelsUrl(channel: RelayChannel): URL {
    return new URL(`${baseUrl(channel)}/v1/models`);
  }

  parseModelList(body: unknown): string[] {
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return [];
    return data.map((entry) => (entry as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
  }
}

function baseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '').replace(/\/v1$/, '');
}
