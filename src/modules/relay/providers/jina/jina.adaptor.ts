import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, channelTypeRow, type ChannelTypeRow } from '../../../channels/channel-types';
import type { JsonObject } from '../../wire/wire-format';
import type { NativeAdaptor, UpstreamTarget } from '../adaptor';
import { OpenAICompatibleAdaptor } from '../openai-compatible/openai-compatible.adaptor';

/**
 * Jina AI (channel type 38): OpenAI's embeddings and Cohere's rerank, both at `/v1`, usage as
 * `usage.total_tokens`. One difference from OpenAI's wire: Jina names the vector encoding
 * `embedding_type`, not `encoding_format` (its `base64` is OpenAI's: float32, little-endian),
 * so OpenAI's SDKs, which ask for base64 by default, get what they asked for.
 */
@Injectable()
export class JinaAdaptor extends OpenAICompatibleAdaptor implements NativeAdaptor {
  readonly channelTypes = [CHANNEL_TYPE.JINA];

  constructor() {
    super(channelTypeRow(CHANNEL_TYPE.JINA) as ChannelTypeRow);
  }

  override fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject {
    super.fitRequest(target, body);
    if (target.endpoint === 'embeddings' && body.encoding_format !== undefined) {
      body.embedding_type ??= body.encoding_format === 'base64' ? 'base64' : 'float';
      delete body.encoding_format;
    }
    return body;
  }

  override keepsClientBody(target: UpstreamTarget, body: JsonObject): boolean {
    return super.keepsClientBody(target, body) && !(target.endpoint === 'embeddings' && body.encoding_format !== undefined);
  }
}
