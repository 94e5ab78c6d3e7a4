import type { RelayChannel } from '../../caches/relay-channel';
import { socketUrl } from '../socket-url';
import type { ChannelTypeRow } from '../../../channels/channel-types';
import { endpointCapability, endpointSpec, type RelayEndpoint } from '../../relay-endpoints';
import { RelayError } from '../../relay-error';
import type { JsonObject, WireFormat } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerReading, ModelListing, ProviderAdaptor, RawUsageReader, ResponsesServing, UpstreamTarget } from '../adaptor';
import { readRerankMeta } from '../cohere/cohere-content';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import { openAIAnswerText } from '../../wire/openai-answer';
import { readUsage } from '../../wire/openai-usage';
import type { UsageMeter, UsageReport } from '../../wire/usage';
import { chatCompletionFromResponse, createResponsesEventDecoder, responsesRequestFromChat } from './responses-upstream';
import { topLevelUsage } from './usage-at-end';

/**
 * Every provider that speaks OpenAI's wire format, configured by its catalogue row alone.
 * Requests and answers pass through as they are; only the URL (the row's base URL and API
 * path), the headers and a few body fields (model, stream usage) change.
 */
export class OpenAICompatibleAdaptor implements ProviderAdaptor, ModelListing, RawUsageReader, ResponsesServing {
  /** OpenAI's; a subclass for a provider with quirks of its own (errors inside answers) names its own format. */
  readonly format: WireFormat = 'openai';
  readonly streamUsageMarker = /"usage"\s*:\s*\{|"type"\s*:\s*"response\.completed"/;

  /**
   * Upstream URLs by channel and endpoint: parsing one cost 0.8 µs a request. An edited
   * channel is a new RelayChannel, so the WeakMap lets the old one's go. Shared between
   * requests, so never modified.
   */
  private readonly urls = new WeakMap<RelayChannel, Map<string, URL | null>>();

  /** Whether each upstream model answers only on Responses, by the row's prefixes (bounded: model names are few). */
  private readonly responsesOnlyModels = new Map<string, boolean>();

  constructor(readonly provider: ChannelTypeRow) {}

  buildUrl(target: UpstreamTarget): URL | undefined {
    // A chat for a model that answers only on Responses goes to /responses, offered or not by the row: the channel says it is.
    const endpoint = this.answersOnlyOnResponses(target) ? 'responses' : target.endpoint;
    let byEndpoint = this.urls.get(target.channel);
    if (!byEndpoint) this.urls.set(target.channel, (byEndpoint = new Map()));
    let url = byEndpoint.get(endpoint);
    if (url === undefined) byEndpoint.set(endpoint, (url = this.endpointUrl(target.channel, endpoint, endpoint !== target.endpoint)));
    return url ?? undefined;
  }

  /** The URL of an endpoint on a channel, or null when the type does not offer it (the catalogue row's capabilities). */
  private endpointUrl(channel: RelayChannel, endpoint: RelayEndpoint, offered = false): URL | null {
    if (!offered && !this.provider.capabilities.includes(endpointCapability(endpoint))) return null;
    return new URL(`${this.apiRoot(channel)}${endpointSpec(endpoint).path}`);
  }

  /**
   * Responses pass through when the row offers them, unless the channel says its upstream
   * serves only Chat Completions (`setting.responses_via_chat`: a vLLM or other server behind
   * an OpenAI-type channel); then they convert.
   */
  servesResponses(channel: RelayChannel): boolean {
    if (this.format !== 'openai') return false;
    return channel.setting.responses_only === true || (this.provider.capabilities.includes('responses') && channel.setting.responses_via_chat !== true);
  }

  /** Chats for the row's Responses-only models (`responsesOnlyModels`), or any on a channel marked `responses_only`. */
  answersOnlyOnResponses(target: UpstreamTarget): boolean {
    if (target.endpoint !== 'chat' || this.format !== 'openai') return false;
    if (target.channel.setting.responses_only === true) return true;
    const prefixes = this.provider.responsesOnlyModels;
    if (!prefixes) return false;
    // Asked several times a request (URL, conversion, delivery): the answer is kept per model.
    let known = this.responsesOnlyModels.get(target.upstreamModel);
    if (known === undefined) {
      const model = target.upstreamModel.toLowerCase();
      known = prefixes.some((prefix) => model.startsWith(prefix));
      if (this.responsesOnlyModels.size >= MODELS_KEPT) this.responsesOnlyModels.clear();
      this.responsesOnlyModels.set(target.upstreamModel, known);
    }
    return known;
  }

  buildHeaders(target: UpstreamTarget): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${target.key}` };
    if (target.channel.openaiOrganization) headers['openai-organization'] = target.channel.openaiOrganization;
    const otherHeader = this.provider.otherField?.header;
    if (otherHeader && target.channel.other.trim()) headers[otherHeader] = target.channel.other.trim();
    return headers;
  }

  fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject {
    body.model = target.upstreamModel;
    if (this.asksForStreamUsage(target, body)) body.stream_options = { ...streamOptions(body), include_usage: true };
    return body;
  }

  /** OpenAI's format is the internal shape: nothing to convert, unless the model answers only on Responses. */
  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    if (this.answersOnlyOnResponses(target)) return Promise.resolve(responsesRequestFromChat(body, target.upstreamModel));
    return Promise.resolve(this.fitRequest(target, body));
  }

  keepsClientBody(target: UpstreamTarget, body: JsonObject): boolean {
    return !this.asksForStreamUsage(target, body);
  }

  /** A stream that asks for usage only because we do: the client's bytes plus our stream_options. */
  addedMembers(target: UpstreamTarget, body: JsonObject): string | undefined {
    return body.stream_options === undefined && this.asksForStreamUsage(target, body) ? STREAM_USAGE_MEMBER : undefined;
  }

  /** Streams of chats and completions ask for usage in their last chunk, unless the client already did. */
  private asksForStreamUsage(target: UpstreamTarget, body: JsonObject): boolean {
    if (!target.stream || !this.provider.streamUsage || (target.endpoint !== 'chat' && target.endpoint !== 'completions')) return false;
    return streamOptions(body).include_usage !== true;
  }

  parseResponse(body: unknown): AnswerReading {
    if (typeof body !== 'object' || body === null) return { text: '' };
    const answer = body as JsonObject;
    // Rerank servers of Cohere's shape (Xinference) report usage in `meta`, not `usage`.
    const usage = readUsage(answer.usage) ?? (Array.isArray(answer.results) ? readRerankMeta(answer.meta) : undefined);
    return { usage, text: openAIAnswerText(answer) };
  }

  toOpenAIResponse(body: unknown, target?: UpstreamTarget): JsonObject {
    if (target && this.answersOnlyOnResponses(target)) return chatCompletionFromResponse(body, target.upstreamModel);
    return body as JsonObject;
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    if (this.answersOnlyOnResponses(target)) return createResponsesEventDecoder(target.upstreamModel, usage);
    // OpenAI's own chunks are the internal shape: only their usage is collected.
    return new SseJsonDecoder((chunk) => {
      usage.add(readUsage(chunk.usage));
      return [chunk];
    });
  }

  readUsageFromBytes(bytes: Buffer): UsageReport | undefined {
    return readUsage(topLevelUsage(bytes));
  }

  parseStreamEvent(data: string): AnswerReading | undefined {
    if (data === '[DONE]') return undefined;
    let event: JsonObject;
    try {
      event = JSON.parse(data) as JsonObject;
    } catch {
      return undefined;
    }
    // The Responses API streams typed events; its usage arrives in response.completed.
    if (typeof event.type === 'string') {
      if (event.type === 'response.output_text.delta') return { text: typeof event.delta === 'string' ? event.delta : '' };
      if (event.type === 'response.completed') return { usage: readUsage((event.response as JsonObject | undefined)?.usage), text: '' };
      return undefined;
    }
    const usage = readUsage(event.usage);
    return { usage, text: openAIAnswerText(event), usageOnly: usage !== undefined && Array.isArray(event.choices) && event.choices.length === 0 };
  }

  modelsUrl(channel: RelayChannel): URL {
    return new URL(`${this.apiRoot(channel)}/models`);
  }

  parseModelList(body: unknown): string[] {
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return [];
    return data.map((entry) => (entry as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
  }

  /** Where OpenAI's `/v1` lies on this channel: the base URL and the type's API path (`/v1` unless the row says otherwise). */
  protected apiRoot(channel: RelayChannel): string {
    const template = this.provider.apiPath ?? '/v1';
    const other = channel.other.trim();
    // A channel saved before its type required the field (or imported): it fails over, saying what is missing.
    if (!other && template.includes('{other}')) throw new RelayError('channel:bad_response', `The channel's ${this.provider.otherField?.meaning ?? 'other field'} is empty, and its type needs it in every URL`, 502);
    const apiPath = template.replace('{other}', encodeURIComponent(other));
    return `${this.baseUrl(channel, apiPath)}${apiPath}`;
  }

  /** OpenAI's Realtime API on the channel, when its row offers it: `…/v1/realtime?model=`. */
  realtimeUrl(target: UpstreamTarget): URL | undefined {
    if (!this.provider.capabilities.includes('realtime')) return undefined;
    const url = socketUrl(`${this.apiRoot(target.channel)}/realtime`);
    url.searchParams.set('model', target.upstreamModel);
    return url;
  }

  /** Responses over WebSocket, for rows that may serve it and channels whose upstream serves Responses. */
  responsesSocketUrl(target: UpstreamTarget): URL | undefined {
    if (!this.provider.capabilities.includes('responses_websocket') || !this.servesResponses(target.channel)) return undefined;
    return socketUrl(`${this.apiRoot(target.channel)}/responses`);
  }

  /** The channel's base URL, or the type's default; a pasted API path at its end (`…/v1`) is dropped, since we add it ourselves. */
  protected baseUrl(channel: RelayChannel, apiPath = '/v1'): string {
    const base = (channel.baseUrl || this.provider.defaultBaseUrl).replace(/\/+$/, '');
    return apiPath && base.endsWith(apiPath) ? base.slice(0, -apiPath.length) : base;
  }
}

const MODELS_KEPT = 1000;
const STREAM_USAGE_MEMBER = '"stream_options":{"include_usage":true}';

function streamOptions(body: JsonObject): JsonObject {
  return typeof body.stream_options === 'object' && body.stream_options !== null ? (body.stream_options as JsonObject) : {};
}
