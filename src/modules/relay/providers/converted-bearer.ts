import type { AnswerReading, JsonObject, UpstreamTarget } from './adaptor';

/**
 * What the adaptors of providers whose format no client speaks (Cohere, M3E servers) share:
 * every request converts (`convertRequest`), so a client's own body never goes up as it is
 * and no answer passes through, and the key travels as a bearer token.
 */
export abstract class ConvertedBearerAdaptor {
  buildHeaders(target: UpstreamTarget): Record<string, string> {
    return { authorization: `Bearer ${target.key}` };
  }

  /** Never called with a client's own body; kept correct for the contract. */
  fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject {
    body.model = target.upstreamModel;
    return body;
  }

  keepsClientBody(): boolean {
    return false;
  }

  /** No stream passes through untranslated. */
  parseStreamEvent(): AnswerReading | undefined {
    return undefined;
  }
}
