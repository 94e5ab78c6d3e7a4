import { Injectable } from '@nestjs/common';
import type { ProviderAdaptor } from './adaptor';
import { AnthropicAdaptor } from './anthropic/anthropic.adaptor';
import { BedrockAdaptor } from './bedrock/bedrock.adaptor';
import { GeminiAdaptor } from './gemini/gemini.adaptor';
import { VertexAdaptor } from './vertex/vertex.adaptor';
import { AzureAdaptor } from './azure/azure.adaptor';
import { OpenAICompatibleAdaptor } from './openai-compatible/openai-compatible.adaptor';
import { OPENAI_COMPATIBLE_PROVIDERS } from './openai-compatible/openai-channel-types';

/**
 * The adaptor of each channel type. Native adaptors are Nest providers (they read settings);
 * OpenAI-compatible ones are one data row each.
 */
@Injectable()
export class ProviderRegistry {
  private readonly adaptors: Map<number, ProviderAdaptor>;

  constructor(anthropic: AnthropicAdaptor, gemini: GeminiAdaptor, bedrock: BedrockAdaptor, vertex: VertexAdaptor) {
    this.adaptors = new Map<number, ProviderAdaptor>([
      ...OPENAI_COMPATIBLE_PROVIDERS.map((provider) => [provider.type, new OpenAICompatibleAdaptor(provider)] as const),
      [3, new AzureAdaptor()],
      [14, anthropic],
      [24, gemini],
      [33, bedrock],
      [41, vertex],
    ]);
  }

  /** The adaptor of a channel type, or undefined when this build cannot relay through it yet. */
  forChannelType(type: number): ProviderAdaptor | undefined {
    return this.adaptors.get(type);
  }

  /** The channel types this build can relay through. */
  supportedChannelTypes(): number[] {
    return [...this.adaptors.keys()];
  }
}
