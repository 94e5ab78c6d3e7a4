import type { UpstreamTarget } from './adaptor';
import { ConvertingAdaptor } from './converting-adaptor';

/** A provider whose format no client speaks (Cohere, M3E servers, the app platforms), with its key as a bearer token. */
export abstract class ConvertedBearerAdaptor extends ConvertingAdaptor {
  buildHeaders(target: UpstreamTarget): Record<string, string> {
    return { authorization: `Bearer ${target.key}` };
  }
}
