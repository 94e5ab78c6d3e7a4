import { Injectable } from '@nestjs/common';
import { defaultBaseUrl } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import type { AnswerReading, JsonObject, ModelListing, OutgoingCall, ProviderAdaptor, StreamDecoder, UpstreamTarget } from '../adaptor';
import { ANTHROPIC_VERSION, claudeRequestFromOpenAI, claudeSseDecoder, claudeText, openAIResponseFromClaude, readClaudeAnswer, readClaudeUsage } from '../claude/claude-messages';
import { ClaudeSettings } from '../claude/claude-settings';
import type { UsageMeter } from '../usage';


/**
 * Anthropic's Messages API (channel type 14). Claude clients pass straight through; OpenAI
 * chat requests convert to Messages and back.
 */
@Injectable()
export class AnthropicAdaptor implements ProviderAdaptor, ModelListing {
  readonly format = 'claude';
  readonly streamUsageMarker = /"type"\s*:\s*"message_(start|delta)"/;

  constructor(private readonly settings: ClaudeSettings) {}

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
    if (typeof client['anthropic-beta'] === 'string') headers['anthropic-beta'] = client['anthropic-beta'];
    return headers;
  }

  fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject {
    body.model = target.upstreamModel;
    if (typeof body.max_tokens !== 'number') body.max_tokens = this.settings.defaultMaxTokens(target.upstreamModel);
    return body;
  }

  keepsClientBody(_target: UpstreamTarget, body: JsonObject): boolean {
    return typeof body.max_tokens === 'number';
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    const model = target.upstreamModel;
    return Promise.resolve(claudeRequestFromOpenAI(body, { model, defaultMaxTokens: this.settings.defaultMaxTokens(model.replace(/-thinking$/, '')), thinkingBudgetShare: this.settings.thinkingBudgetShare() }));
  }

  parseResponse(body: unknown): AnswerReading {
    return readClaudeAnswer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return openAIResponseFromClaude(body as JsonObject, target.upstreamModel);
  }

  parseStreamEvent(data: string): AnswerReading | undefined {
    let event: JsonObject;
    try {
      event = JSON.parse(data) as JsonObject;
    } catch {
      return undefined;
    }
    const usage = event.type === 'message_start' ? (event.message as JsonObject | undefined)?.usage : event.usage;
    return { usage: readClaudeUsage(usage), text: claudeText(event) };
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    return claudeSseDecoder(target.upstreamModel, usage);
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
