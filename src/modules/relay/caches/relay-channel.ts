import { keyMode, keyStatuses, type ChannelKeyInfo, type KeyStatus } from '../../channels/channel-keys';
import { CHANNEL_STATUS_ENABLED } from '../../channels/entities/channel.entity';
import type { ChannelKeyMode } from '../../channels/channel.wire';

/**
 * A channel as the hot path sees it: the decrypted key and every JSON setting parsed once,
 * when the channel cache loads. Never serialised back to anyone.
 */
export interface RelayChannel {
  id: number;
  name: string;
  type: number;
  status: number;
  /** Decrypted. Several keys (one per line) make a multi-key channel: see chooseKeyIndex. */
  keys: string[];
  keyMode: ChannelKeyMode;
  /** Each key's status (1 enabled, 2 disabled by an admin, 3 disabled automatically), in key order. */
  keyStatuses: KeyStatus[];
  /** The indexes of the enabled keys, which requests draw from. */
  enabledKeys: number[];
  /** This instance's counters of the keys; kept across cache reloads while the keys stay the same. */
  keyUsage: KeyUsage;
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

/** In-memory counters of a channel's keys, for the console's key list and for polling. */
export interface KeyUsage {
  /** The next turn of polling mode. */
  cursor: number;
  /** Attempts sent with each key. */
  uses: number[];
  /** The last upstream error each key got (scrubbed), with its time in epoch seconds. */
  lastErrors: ({ message: string; time: number } | undefined)[];
}

/** Keeps the last error of a key for the console's key list; `message` must be scrubbed already. */
export function recordKeyError(channel: RelayChannel, keyIndex: number, message: string): void {
  channel.keyUsage.lastErrors[keyIndex] = { message: message.slice(0, 300), time: Math.floor(Date.now() / 1000) };
}

export type ChannelKeyFields = Pick<RelayChannel, 'keys' | 'keyMode' | 'keyStatuses' | 'enabledKeys' | 'keyUsage'>;

/** A channel's key fields from its decrypted keys and its stored key states; `usage` carries counters over a reload. */
export function channelKeyFields(keys: string[], info: ChannelKeyInfo, usage?: KeyUsage): ChannelKeyFields {
  const statuses = keyStatuses(info, keys.length);
  return {
    keys,
    keyMode: keyMode(info),
    keyStatuses: statuses,
    enabledKeys: enabledIndexes(statuses),
    keyUsage: usage ?? { cursor: 0, uses: new Array<number>(keys.length).fill(0), lastErrors: new Array<undefined>(keys.length).fill(undefined) },
  };
}

/** Whether two key lists are the same keys in the same order (key states and counters are by index). */
export function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

export function enabledIndexes(statuses: readonly KeyStatus[]): number[] {
  const enabled: number[] = [];
  statuses.forEach((status, index) => {
    if (status === CHANNEL_STATUS_ENABLED) enabled.push(index);
  });
  return enabled;
}

/**
 * The key for the next attempt, by index: the only one, or among the enabled keys the next in
 * turn (polling) or one at random. A channel without an enabled key is out of routing; its
 * first key is answered for the callers that still ask (a probe of a disabled channel).
 */
export function chooseKeyIndex(channel: RelayChannel, random: () => number = Math.random): number {
  const enabled = channel.enabledKeys;
  if (enabled.length <= 1) return enabled[0] ?? 0;
  if (channel.keyMode === 'polling') {
    const turn = channel.keyUsage.cursor;
    channel.keyUsage.cursor = (turn + 1) % enabled.length;
    return enabled[turn % enabled.length];
  }
  return enabled[Math.floor(random() * enabled.length)];
}

export function pickKey(channel: RelayChannel): string {
  return channel.keys[chooseKeyIndex(channel)];
}

/** A key drawn as pickKey does, with its index for the log row. */
export function drawKey(channel: RelayChannel): { key: string; keyIndex: number } {
  const keyIndex = chooseKeyIndex(channel);
  return { key: channel.keys[keyIndex], keyIndex };
}
