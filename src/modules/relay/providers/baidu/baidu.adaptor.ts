import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../config/app-config';
import { ConvertingAdaptor } from '../converting-adaptor';
import type { UpstreamAnswer } from '../../../outbound/upstream-answer';
import { CHANNEL_TYPE, defaultBaseUrl } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import type { RelayEndpoint } from '../../relay-endpoints';
import { UpstreamClientService, type UpstreamCall } from '../../upstream-client.service';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerError, AnswerErrors, AnswerReading, KnownModels, NativeAdaptor, OwnTransport, UpstreamTarget } from '../adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import type { UsageMeter } from '../../wire/usage';
import { baiduAnswerError, ernieEmbeddingsFromOpenAI, ernieRequestFromOpenAI, ErnieChunkTranslator, openAIEmbeddingsFromErnie, openAIResponseFromErnie, readErnieAnswer, rejectsAccessToken } from './baidu-content';
import { ERNIE_KNOWN_MODELS, ernieEndpoint } from './baidu-models';
import { BaiduTokenRefusedError, BaiduTokenService, parseBaiduKey } from './baidu-token.service';
import { bufferedAnswer, errorAnswer } from './buffered-answer';

const WENXINWORKSHOP = '/rpc/2.0/ai_custom/v1/wenxinworkshop';

/** What differs between ERNIE's two endpoints: its path and the conversions of its bodies. */
interface ErnieEndpoint {
  path: 'chat' | 'embeddings';
  request(body: JsonObject): JsonObject;
  answer(body: JsonObject, model: string): JsonObject;
}

const ERNIE_ENDPOINTS: Partial<Record<RelayEndpoint, ErnieEndpoint>> = {
  chat: { path: 'chat', request: ernieRequestFromOpenAI, answer: openAIResponseFromErnie },
  embeddings: { path: 'embeddings', request: ernieEmbeddingsFromOpenAI, answer: openAIEmbeddingsFromErnie },
};

/** The endpoint of a target the adaptor offers (buildUrl refuses the others before any conversion). */
function ernieEndpointOf(target: UpstreamTarget): ErnieEndpoint {
  return ERNIE_ENDPOINTS[target.endpoint] ?? (ERNIE_ENDPOINTS.chat as ErnieEndpoint);
}

/**
 * Baidu Wenxin (channel type 15): ERNIE chat and embeddings on the legacy wenxinworkshop API,
 * one endpoint per model. The key `API Key|Secret Key` is exchanged for an access token
 * (cached), which Baidu takes only in the URL's query: it is added in `call`, on a copy of the
 * URL that goes nowhere but the request, so no URL the relay logs or reports carries it.
 * Baidu reports errors with status 200 and `{error_code, error_msg}` (AnswerErrors); a token it
 * refuses (110/111) is renewed once and the call made again.
 */
@Injectable()
export class BaiduAdaptor extends ConvertingAdaptor implements NativeAdaptor, AnswerErrors, OwnTransport, KnownModels {
  readonly channelTypes = [CHANNEL_TYPE.BAIDU];
  readonly format = 'baidu';
  readonly streamUsageMarker = /"usage"/;

  constructor(
    private readonly tokens: BaiduTokenService,
    private readonly upstream: UpstreamClientService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  buildUrl(target: UpstreamTarget): URL | undefined {
    const endpoint = ERNIE_ENDPOINTS[target.endpoint];
    if (!endpoint) return undefined;
    const segment = encodeURIComponent(ernieEndpoint(target.upstreamModel, endpoint.path === 'embeddings'));
    return new URL(`${baseUrl(target.channel)}${WENXINWORKSHOP}/${endpoint.path}/${segment}`);
  }

  /** No header: the access token goes in the URL's query, added by `call`. */
  buildHeaders(): Record<string, string> {
    return {};
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    return Promise.resolve(ernieEndpointOf(target).request(body));
  }

  parseResponse(body: unknown): AnswerReading {
    return readErnieAnswer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return ernieEndpointOf(target).answer(body as JsonObject, target.upstreamModel);
  }

  override parseStreamEvent(data: string): AnswerReading | undefined {
    const event = parseJson(data);
    return event === undefined ? undefined : readErnieAnswer(event);
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    const chunks = new ErnieChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((event) => chunks.translate(event));
  }

  answerError(body: unknown): AnswerError | undefined {
    return baiduAnswerError(body);
  }

  /** The legacy API lists no endpoints: fetch_models answers the ERNIE models the gateway maps. */
  knownModels(): readonly string[] {
    return ERNIE_KNOWN_MODELS;
  }

  /**
   * The call with the access token in its query. A refused key answers 401 (auto-disable) as
   * an upstream would; an answer refusing the token (110/111) renews it once and calls again.
   */
  async call(target: UpstreamTarget, request: UpstreamCall): Promise<UpstreamAnswer> {
    const credentials = parseBaiduKey(target.key);
    if (!credentials) return errorAnswer(401, 'The Baidu channel key must be "API Key|Secret Key"', 'invalid_api_key');
    const base = baseUrl(target.channel);
    try {
      const token = await this.tokens.accessToken(base, credentials);
      const first = await this.readIfError(await this.send(request, token));
      if (!first.refusesToken) return first.answer;
      return await this.send(request, await this.tokens.renew(base, credentials, token));
    } catch (error) {
      if (error instanceof BaiduTokenRefusedError) return errorAnswer(error.status, error.message, error.status === 401 ? 'invalid_api_key' : undefined);
      throw error;
    }
  }

  private send(request: UpstreamCall, token: string): Promise<UpstreamAnswer> {
    const url = new URL(request.url);
    url.searchParams.set('access_token', token);
    return this.upstream.relay({ ...request, url });
  }

  /**
   * A JSON answer (Baidu's errors come so, also to a streaming request) is read whole to see
   * whether it refuses the token; the relay then reads the same bytes. Streams and error
   * statuses pass untouched.
   */
  private async readIfError(answer: UpstreamAnswer): Promise<{ answer: UpstreamAnswer; refusesToken: boolean }> {
    if (answer.statusCode >= 300 || !(answer.header('content-type') ?? '').includes('json')) return { answer, refusesToken: false };
    const bytes = await answer.collect(this.config.relay.maxResponseBodyBytes);
    return { answer: bufferedAnswer(answer.statusCode, answer.headers, bytes), refusesToken: bytes !== undefined && rejectsAccessToken(parseJson(bytes.toString('utf8'))) };
  }
}

function baseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
