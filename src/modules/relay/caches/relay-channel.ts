/**
 * A channel as the hot path sees it: the decrypted key and every JSON setting parsed once,
 * when the channel cache loads. Never serialised back to anyone.
 */
export interface RelayChannel {
  id: number;
  name: string;
  type: number;
  status: number;
  /** Decrypted. Several keys (one per line) are used in turn at random. */
  keys: string[];
  baseUrl: string;
  openaiOrganization: string;
  other: string;
  autoBan: boolean;
  priority: number;
  weight: number;
  testModel: string;
  models: string[];
  modelMapping: Record<string, string>;
  statusCodeMapping: Record<string, string>;
  paramOverride: Record<string, unknown>;
  setting: ChannelSetting;
}

/** The parts of channel.setting the relay understands. */
export interface ChannelSetting {
  /** Prepended as a system message to chat requests that have none. */
  system_prompt?: string;
  /**
   * The upstream serves Chat Completions only, though the type offers Responses (an OpenAI-type
   * channel in front of vLLM, Ollama or another gateway): Responses clients are served by
   * conversion, not passed through.
   */
  responses_via_chat?: boolean;
  /**
   * The channel's models answer only on OpenAI's Responses API: chats (and Claude and Gemini
   * clients) are converted into Responses requests, and Responses clients pass through.
   */
  responses_only?: boolean;
}

export function pickKey(channel: RelayChannel): string {
  const keys = channel.keys;
  return keys.length === 1 ? keys[0] : keys[Math.floor(Math.random() * keys.length)];
}
