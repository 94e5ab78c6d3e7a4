import { CHANNEL_TYPE, channelTypeRow } from '../channels/channel-types';
import type { RelayEndpoint } from '../relay/relay-endpoints';

/**
 * `gen_ai.system` of the channel types the GenAI semantic conventions name; the others get
 * their catalogue name in lower case without its parenthesis, words joined by `_` (`Zhipu v4` →
 * `zhipu_v4`, `Another gateway (new-api, one-api)` → `another_gateway`).
 */
const WELL_KNOWN_SYSTEMS: Readonly<Record<number, string>> = {
  [CHANNEL_TYPE.OPENAI]: 'openai',
  [CHANNEL_TYPE.AZURE]: 'az.ai.openai',
  [CHANNEL_TYPE.ANTHROPIC]: 'anthropic',
  [CHANNEL_TYPE.GEMINI]: 'gcp.gemini',
  [CHANNEL_TYPE.VERTEX]: 'gcp.vertex_ai',
  [CHANNEL_TYPE.AWS]: 'aws.bedrock',
  [CHANNEL_TYPE.COHERE]: 'cohere',
  [CHANNEL_TYPE.MISTRAL]: 'mistral_ai',
  [CHANNEL_TYPE.DEEPSEEK]: 'deepseek',
  [CHANNEL_TYPE.PERPLEXITY]: 'perplexity',
  [CHANNEL_TYPE.XAI]: 'xai',
};

const systems = new Map<number, string>();

/** The provider of a channel type, as `gen_ai.system` names it. */
export function genAiSystem(channelType: number): string {
  let system = systems.get(channelType);
  if (system === undefined) {
    const name = channelTypeRow(channelType)?.name ?? `channel_type_${channelType}`;
    system = WELL_KNOWN_SYSTEMS[channelType] ?? name.replace(/\(.*\)/g, '').toLowerCase().replace(/[^a-z0-9.]+/g, '_').replace(/^_+|_+$/g, '');
    systems.set(channelType, system);
  }
  return system;
}

/** `gen_ai.operation.name` of a relay endpoint: the conventions' names where they have one, else the endpoint's own. */
export function genAiOperation(endpoint: RelayEndpoint): string {
  switch (endpoint) {
    case 'chat':
    case 'responses':
      return 'chat';
    case 'completions':
      return 'text_completion';
    default:
      return endpoint;
  }
}
