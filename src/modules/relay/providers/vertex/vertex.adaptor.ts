import { Injectable } from '@nestjs/common';
import { defaultOther, CHANNEL_TYPE } from '../../../channels/channel-types';
import type { Readable } from 'node:stream';
import type { JsonObject, WireFormat } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerReading, ClientFormatPassThrough, KnownModels, NativeAdaptor, StreamReframing, UpstreamTarget } from '../adaptor';
import { ClaudeAnswers } from '../claude/claude-answers';
import { claudeRequestFromOpenAI, inlineClaudeImages } from '../claude/claude-messages';
import { ClaudeSettings } from '../claude/claude-settings';
import { GeminiAnswers } from '../gemini/gemini-answers';
import { geminiRequestFromOpenAI } from '../gemini/gemini-content';
import { GeminiSettings } from '../gemini/gemini-settings';
import { ImageFetcherService } from '../image-fetcher.service';
import type { UsageMeter } from '../../wire/usage';
import { parseServiceAccountKey, VertexTokenService } from './vertex-token.service';

const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
const VERTEX_MODELS: readonly string[] = [
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash',
  'gemini-2.0-flash-lite',
  'claude-opus-4-1@20250805',
  'claude-sonnet-4-5@20250929',
  'claude-sonnet-4@20250514',
  'claude-haiku-4-5@20251001',
  'claude-3-7-sonnet@20250219',
  'claude-3-5-haiku@20241022',
];

function isClaude(model: string): boolean {
  return model.startsWith('claude');
}

/** Answers of the two publishers: each read as its own API's, chosen by the model asked or by the answer's shape. */
const GEMINI_ANSWERS = new GeminiAnswers();
const CLAUDE_ANSWERS = new ClaudeAnswers();

function answersFor(target: UpstreamTarget): GeminiAnswers | ClaudeAnswers {
  return isClaude(target.upstreamModel) ? CLAUDE_ANSWERS : GEMINI_ANSWERS;
}

/**
 * Google Vertex AI (channel type 41): Gemini models (generateContent) and Claude models
 * (rawPredict, anthropic_version vertex-2023-10-16) under one project. The key is a
 * service-account JSON key, exchanged for a cached OAuth2 access token; the region is the
 * channel's `other` field (us-central1 when empty; `global` uses the global endpoint).
 * Its format is `vertex`: OpenAI clients convert; Claude and Gemini clients' bodies pass
 * through to the models of their own format (clientFormatFor).
 */
@Injectable()
export class VertexAdaptor implements NativeAdaptor, ClientFormatPassThrough, StreamReframing, KnownModels {
  readonly channelTypes = [CHANNEL_TYPE.VERTEX];
  readonly format = 'vertex';
  readonly streamUsageMarker = new RegExp(`${GEMINI_ANSWERS.streamUsageMarker.source}|${CLAUDE_ANSWERS.streamUsageMarker.source}`);

  constructor(
    private readonly tokens: VertexTokenService,
    private readonly claude: ClaudeSettings,
    private readonly gemini: GeminiSettings,
    private readonly images: ImageFetcherService,
  ) {}

  buildUrl(target: UpstreamTarget): URL | undefined {
    if (target.endpoint !== 'chat') return undefined;
    const { project_id: project } = parseServiceAccountKey(target.key);
    const region = target.channel.other.trim() || defaultOther(target.channel.type);
    const host = region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`;
    const base = (target.channel.baseUrl || host).replace(/\/+$/, '');
    const model = encodeURIComponent(isClaude(target.upstreamModel) ? this.claude.claudeModel(target.upstreamModel) : target.upstreamModel);
    const publisher = `${base}/v1/projects/${encodeURIComponent(project)}/locations/${region}/publishers`;
    if (isClaude(target.upstreamModel)) return new URL(`${publisher}/anthropic/models/${model}:${target.stream ? 'streamRawPredict' : 'rawPredict'}`);
    return new URL(`${publisher}/google/models/${model}:${target.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`);
  }

  async buildHeaders(target: UpstreamTarget): Promise<Record<string, string>> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.tokens.accessToken(parseServiceAccountKey(target.key))}` };
    // Claude on Vertex takes Anthropic's beta header as Anthropic does.
    const betas = isClaude(target.upstreamModel) ? this.claude.betas(target.upstreamModel, target.clientHeaders?.['anthropic-beta'], target.channel.type) : [];
    if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
    return headers;
  }

  /** Claude models take a Claude client's body, Gemini models a Gemini client's. */
  clientFormatFor(target: UpstreamTarget): WireFormat {
    return isClaude(target.upstreamModel) ? 'claude' : 'gemini';
  }

  /**
   * A Claude client's body gets Vertex's anthropic_version and loses the model (it is in the
   * URL) and the fields of betas Vertex refuses; a Gemini client's goes as it is.
   */
  fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject {
    if (!isClaude(target.upstreamModel)) return body;
    const { model: _model, ...claude } = body;
    const fitted: JsonObject = { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...claude };
    this.claude.fitClientBody(fitted, target.upstreamModel);
    this.claude.dropFieldsOfRefusedBetas(fitted, target.clientHeaders?.['anthropic-beta'], target.channel.type);
    return fitted;
  }

  keepsClientBody(target: UpstreamTarget): boolean {
    return !isClaude(target.upstreamModel);
  }

  async convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    const model = target.upstreamModel;
    if (!isClaude(model)) return geminiRequestFromOpenAI(body, { safetySettings: this.gemini.safetySettings() }, (url) => this.images.fetchInline(url));
    const { model: _model, ...claude } = claudeRequestFromOpenAI(body, this.claude.requestOptions(model));
    // Claude on Vertex takes images inline only, as on Bedrock.
    return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...(await inlineClaudeImages(claude, (url) => this.images.fetchInline(url))) };
  }

  parseResponse(body: unknown): AnswerReading {
    if (typeof body !== 'object' || body === null) return { text: '' };
    return 'candidates' in body || 'usageMetadata' in body ? GEMINI_ANSWERS.parseResponse(body) : CLAUDE_ANSWERS.parseResponse(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return answersFor(target).toOpenAIResponse(body, target);
  }

  /** Claude's events name their type; Gemini's chunks do not. */
  parseStreamEvent(data: string): AnswerReading | undefined {
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      return undefined;
    }
    return typeof event === 'object' && event !== null && 'type' in event ? CLAUDE_ANSWERS.parseStreamEvent(data) : GEMINI_ANSWERS.parseResponse(event);
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    return answersFor(target).createStreamDecoder(target, usage);
  }

  /** Gemini models answer a JSON array when a stream is asked without alt=sse. */
  framesOwnStream(contentType: string): boolean {
    return GEMINI_ANSWERS.framesOwnStream(contentType);
  }

  reframeStream(body: Readable): Readable {
    return GEMINI_ANSWERS.reframeStream(body);
  }

  /**
   * Vertex has no API listing the publishers' models a project may call, so fetch_models
   * answers the Gemini and Claude models the gateway knows Vertex serves.
   */
  knownModels(): readonly string[] {
    return VERTEX_MODELS;
  }
}
