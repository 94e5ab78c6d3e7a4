import type { JsonObject } from '../wire/wire-format';
import type { AnswerReading, UpstreamTarget } from './adaptor';

/**
 * The base of the adaptors of providers whose format no client speaks (Baidu's ERNIE, Zhipu's
 * v3, Spark's frames, Hunyuan, Replicate, Cohere, M3E servers, the app platforms): every request
 * converts (`convertRequest`) and every answer translates, so the contract's pass-through members
 * have nothing to do. They are written once here rather than as stubs in each adaptor.
 */
export abstract class ConvertingAdaptor {
  /** Never called: no client's own body goes to such a provider. */
  fitRequest(_target: UpstreamTarget, body: JsonObject): JsonObject {
    return body;
  }

  keepsClientBody(): boolean {
    return false;
  }

  /** No stream passes through untranslated. */
  parseStreamEvent(_data: string): AnswerReading | undefined {
    return undefined;
  }
}
