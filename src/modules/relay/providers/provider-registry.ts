import type { ProviderAdaptor } from './adaptor';
import { AzureAdaptor } from './azure/azure.adaptor';
import { OpenAICompatibleAdaptor } from './openai-compatible/openai-compatible.adaptor';
import { OPENAI_COMPATIBLE_PROVIDERS } from './openai-compatible/openai-channel-types';

const ADAPTORS = new Map<number, ProviderAdaptor>([
  ...OPENAI_COMPATIBLE_PROVIDERS.map((provider) => [provider.type, new OpenAICompatibleAdaptor(provider)] as const),
  [3, new AzureAdaptor()],
]);

/** The adaptor of a channel type, or undefined when this build cannot relay through it yet. */
export function adaptorForChannelType(type: number): ProviderAdaptor | undefined {
  return ADAPTORS.get(type);
}

/** The channel types this build can relay through. */
export function supportedChannelTypes(): number[] {
  return [...ADAPTORS.keys()];
}
