import type { ProviderCapability } from '../channels/channel-types';

/** The OpenAI API surface the relay serves, by path. */
export type RelayEndpoint =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'images'
  | 'image_edits'
  | 'audio_speech'
  | 'audio_transcription'
  | 'audio_translation'
  | 'moderations'
  | 'rerank'
  | 'responses';

export interface EndpointSpec {
  endpoint: RelayEndpoint;
  /** The path below /v1 on OpenAI's wire, also used for OpenAI-compatible upstreams. */
  path: string;
  /** multipart: the body is forwarded as it came, and only its model field is read. */
  body: 'json' | 'multipart';
}

const SPECS: EndpointSpec[] = [
  { endpoint: 'chat', path: '/chat/completions', body: 'json' },
  { endpoint: 'completions', path: '/completions', body: 'json' },
  { endpoint: 'embeddings', path: '/embeddings', body: 'json' },
  { endpoint: 'images', path: '/images/generations', body: 'json' },
  { endpoint: 'image_edits', path: '/images/edits', body: 'multipart' },
  { endpoint: 'audio_speech', path: '/audio/speech', body: 'json' },
  { endpoint: 'audio_transcription', path: '/audio/transcriptions', body: 'multipart' },
  { endpoint: 'audio_translation', path: '/audio/translations', body: 'multipart' },
  { endpoint: 'moderations', path: '/moderations', body: 'json' },
  { endpoint: 'rerank', path: '/rerank', body: 'json' },
  { endpoint: 'responses', path: '/responses', body: 'json' },
];

/** Each endpoint by its path under /v1, as clients call it. */
export const OPENAI_PATHS: ReadonlyMap<string, EndpointSpec> = new Map(SPECS.map((spec) => [`/v1${spec.path}`, spec]));
const BY_ENDPOINT = new Map(SPECS.map((spec) => [spec.endpoint, spec]));

export function endpointForPath(path: string): EndpointSpec | undefined {
  return OPENAI_PATHS.get(path);
}

/** Claude's Messages endpoint: a chat, in Claude's format. */
export const CLAUDE_MESSAGES_SPEC: EndpointSpec = { endpoint: 'chat', path: '/messages', body: 'json' };

export function endpointSpec(endpoint: RelayEndpoint): EndpointSpec {
  return BY_ENDPOINT.get(endpoint) as EndpointSpec;
}

/** The catalogue capability a channel type needs to serve each endpoint. */
const ENDPOINT_CAPABILITY: Readonly<Record<RelayEndpoint, ProviderCapability>> = {
  chat: 'chat',
  completions: 'chat',
  moderations: 'chat',
  embeddings: 'embeddings',
  images: 'images',
  image_edits: 'images',
  audio_speech: 'audio',
  audio_transcription: 'audio',
  audio_translation: 'audio',
  rerank: 'rerank',
  responses: 'responses',
};

export function endpointCapability(endpoint: RelayEndpoint): ProviderCapability {
  return ENDPOINT_CAPABILITY[endpoint];
}
