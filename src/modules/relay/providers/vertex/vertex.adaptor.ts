import { Injectable } from '@nestjs/common';
import type { AnswerReading, JsonObject, ProviderAdaptor, StreamDecoder, UpstreamTarget } from '../adaptor';
import { claudeRequestFromOpenAI, claudeSseDecoder, openAIResponseFromClaude, readClaudeAnswer } from '../claude/claude-messages';
import { ClaudeSettings } from '../claude/claude-settings';
import { GeminiChunkTranslator, geminiRequestFromOpenAI, openAIResponseFromGemini, readGeminiAnswer } from '../gemini/gemini-content';
import { GeminiSettings } from '../gemini/gemini-settings';
import { ImageFetcherService } from '../image-fetcher.service';
import { SseJsonDecoder } from '../sse-decoder';
import type { UsageMeter } from '../usage';
import { parseServiceAccountKey, VertexTokenService } from './vertex-token.service';

const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
const DEFAULT_REGION = 'us-central1';

function isClaude(model: string): boolean {
  return model.startsWith('claude');
}

/**
 * Google Vertex AI (channel type 41): Gemini models (generateContent) and Claude models
 * (rawPredict, anthropic_version vertex-2023-10-16) under one project. The key is a
 * service-account JSON key, exchanged for a cached OAuth2 access token; the region is the
 * channel's `other` field (us-central1 when empty; `global` uses the global endpoint).
 * Its format is `vertex`, which no client speaks: requests always convert.
 */
@Injectable()
export class VertexAdaptor implements ProviderAdaptor {
  readonly format = 'vertex';
  readonly streamUsageMarker = /"usageMetadata"|"type"\s*:\s*"message_(start|delta)"/;

  constructor(
    private readonly tokens: VertexTokenService,
    private readonly claude: ClaudeSettings,
    private readonly gemini: GeminiSettings,
    private readonly images: ImageFetcherService,
  ) {}

  buildUrl(target: UpstreamTarget): URL | undefined {
    if (target.endpoint !== 'chat') return undefined;
    const { project_id: project } = parseServiceAccountKey(target.key);
    const region = target.channel.other.trim() || DEFAULT_REGION;
    const host = region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`;
    const base = (target.channel.baseUrl || host).replace(/\/+$/, '');
    const model = encodeURIComponent(target.upstreamModel);
    const publisher = `${base}/v1/projects/${encodeURIComponent(project)}/locations/${region}/publishers`;
    if (isClaude(target.upstreamModel)) return new URL(`${publisher}/anthropic/models/${model}:${target.stream ? 'streamRawPredict' : 'rawPredict'}`);
    return new URL(`${publisher}/google/models/${model}:${target.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`);
  }

  async buildHeaders(target: UpstreamTarget): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.tokens.accessToken(parseServiceAccountKey(target.key))}` };
  }

  fitRequest(_target: UpstreamTarget, body: JsonObject): JsonObject {
    return body;
  }

  keepsClientBody(): boolean {
    return false;
  }

  async convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    const model = target.upstreamModel;
    if (!isClaude(model)) return geminiRequestFromOpenAI(body, { safetySettings: this.gemini.safetySettings() }, (url) => this.images.fetchInline(url));
    const { model: _model, ...claude } = claudeRequestFromOpenAI(body, { model, defaultMaxTokens: this.claude.defaultMaxTokens(model), thinkingBudgetShare: this.claude.thinkingBudgetShare() });
    return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...claude };
  }

  parseResponse(body: unknown): AnswerReading {
    if (typeof body !== 'object' || body === null) return { text: '' };
    const answer = body as JsonObject;
    return 'candidates' in answer || 'usageMetadata' in answer ? readGeminiAnswer(answer) : readClaudeAnswer(answer);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    if (isClaude(target.upstreamModel)) return openAIResponseFromClaude(body as JsonObject, target.upstreamModel);
    return openAIResponseFromGemini(body as JsonObject, target.upstreamModel);
  }

  parseStreamEvent(): AnswerReading | undefined {
    return undefined;
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    if (isClaude(target.upstreamModel)) return claudeSseDecoder(target.upstreamModel, usage);
    const chunks = new GeminiChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((answer) => chunks.translate(answer));
  }
}
