import type { ChannelKeyMode } from './channel.wire';
import { CHANNEL_STATUS_AUTO_DISABLED, CHANNEL_STATUS_ENABLED, CHANNEL_STATUS_MANUALLY_DISABLED } from './entities/channel.entity';

/**
 * The per-key state of a multi-key channel, stored as JSON in channels.channel_info under
 * new-api's names. Keys are addressed by their index in the key field; a key absent from the
 * status list is enabled, so a channel saved before multi-key keys (channel_info null) has
 * every key enabled and draws them at random, as it always did.
 */
export interface ChannelKeyInfo {
  multi_key_mode?: ChannelKeyMode;
  /** Key index → CHANNEL_STATUS_MANUALLY_DISABLED or CHANNEL_STATUS_AUTO_DISABLED. */
  multi_key_status_list?: Record<string, number>;
  /** Key index → why it was disabled (scrubbed of secrets). */
  multi_key_disabled_reason?: Record<string, string>;
  /** Key index → when it was disabled (epoch seconds). */
  multi_key_disabled_time?: Record<string, number>;
}

/** How a multi-key channel draws its next key: uniformly at random among the enabled ones, or each in turn. */
export const CHANNEL_KEY_MODES: readonly ChannelKeyMode[] = ['random', 'polling'];

export type KeyStatus = typeof CHANNEL_STATUS_ENABLED | typeof CHANNEL_STATUS_MANUALLY_DISABLED | typeof CHANNEL_STATUS_AUTO_DISABLED;

export function parseChannelKeyInfo(text: string | null | undefined): ChannelKeyInfo {
  if (!text) return {};
  try {
    const info: unknown = JSON.parse(text);
    return typeof info === 'object' && info !== null && !Array.isArray(info) ? (info as ChannelKeyInfo) : {};
  } catch {
    return {};
  }
}

/** The stored text: null when it says nothing beyond the defaults (random, every key enabled). */
export function serialiseChannelKeyInfo(info: ChannelKeyInfo): string | null {
  const compact: ChannelKeyInfo = {};
  if (info.multi_key_mode && info.multi_key_mode !== 'random') compact.multi_key_mode = info.multi_key_mode;
  if (info.multi_key_status_list && Object.keys(info.multi_key_status_list).length > 0) {
    compact.multi_key_status_list = info.multi_key_status_list;
    compact.multi_key_disabled_reason = info.multi_key_disabled_reason ?? {};
    compact.multi_key_disabled_time = info.multi_key_disabled_time ?? {};
  }
  return Object.keys(compact).length > 0 ? JSON.stringify(compact) : null;
}

export function keyMode(info: ChannelKeyInfo): ChannelKeyMode {
  return info.multi_key_mode && CHANNEL_KEY_MODES.includes(info.multi_key_mode) ? info.multi_key_mode : 'random';
}

export function keyStatus(info: ChannelKeyInfo, index: number): KeyStatus {
  const status = info.multi_key_status_list?.[String(index)];
  return status === CHANNEL_STATUS_MANUALLY_DISABLED || status === CHANNEL_STATUS_AUTO_DISABLED ? status : CHANNEL_STATUS_ENABLED;
}

/** Every key's status, in key order. */
export function keyStatuses(info: ChannelKeyInfo, keyCount: number): KeyStatus[] {
  return Array.from({ length: keyCount }, (_, index) => keyStatus(info, index));
}

/** A copy of `info` with key `index` set to `status`; enabling forgets the reason. */
export function withKeyStatus(info: ChannelKeyInfo, index: number, status: KeyStatus, reason: string, time: number): ChannelKeyInfo {
  const at = String(index);
  const statuses = { ...info.multi_key_status_list };
  const reasons = { ...info.multi_key_disabled_reason };
  const times = { ...info.multi_key_disabled_time };
  if (status === CHANNEL_STATUS_ENABLED) {
    delete statuses[at];
    delete reasons[at];
    delete times[at];
  } else {
    statuses[at] = status;
    reasons[at] = reason;
    times[at] = time;
  }
  return { ...info, multi_key_status_list: statuses, multi_key_disabled_reason: reasons, multi_key_disabled_time: times };
}

/**
 * The key states once an admin enables the channel by hand: its automatically disabled keys
 * are enabled with it (else the channel would be routed with none to draw); keys an admin
 * disabled stay so.
 */
export function withoutAutoDisabledKeys(info: ChannelKeyInfo): ChannelKeyInfo {
  let cleared = info;
  for (const [at, status] of Object.entries(info.multi_key_status_list ?? {})) {
    if (status === CHANNEL_STATUS_AUTO_DISABLED) cleared = withKeyStatus(cleared, Number(at), CHANNEL_STATUS_ENABLED, '', 0);
  }
  return cleared;
}

/**
 * The state carried over when the key field changes: a key still present keeps its status
 * (at its new index), wherever it moved; new keys start enabled.
 */
export function remapKeyStates(info: ChannelKeyInfo, oldKeys: readonly string[], newKeys: readonly string[]): ChannelKeyInfo {
  const oldIndexByKey = new Map(oldKeys.map((key, index) => [key, index]));
  let remapped: ChannelKeyInfo = { multi_key_mode: info.multi_key_mode };
  newKeys.forEach((key, newIndex) => {
    const oldIndex = oldIndexByKey.get(key);
    if (oldIndex === undefined) return;
    const status = keyStatus(info, oldIndex);
    if (status === CHANNEL_STATUS_ENABLED) return;
    const at = String(oldIndex);
    remapped = withKeyStatus(remapped, newIndex, status, info.multi_key_disabled_reason?.[at] ?? '', info.multi_key_disabled_time?.[at] ?? 0);
  });
  return remapped;
}

/** The key field holding `keys`: a JSON array for JSON-document keys (so pretty-printed documents stay whole), else one per line. */
export function joinChannelKeys(keys: readonly string[], keyIsJson: boolean): string {
  if (!keyIsJson || keys.length === 1) return keys.join('\n');
  return `[${keys.join(',')}]`;
}

/**
 * What the console may show of a key: a few characters at each end of a plain key, and of a
 * JSON key (a service account) its client_email or project_id, shortened the same way.
 */
export function maskKey(key: string): string {
  const text = key.trim();
  if (text.startsWith('{')) {
    try {
      const document = JSON.parse(text) as { client_email?: unknown; project_id?: unknown; access_key_id?: unknown };
      const label = [document.client_email, document.project_id].find((value): value is string => typeof value === 'string' && value.length > 0);
      return label ? `{${maskText(label)}}` : '{…}';
    } catch {
      return '{…}';
    }
  }
  return maskText(text);
}

function maskText(text: string): string {
  if (text.length <= 8) return '*'.repeat(Math.max(4, text.length));
  const shown = text.length >= 20 ? 4 : 2;
  return `${text.slice(0, shown)}…${text.slice(-shown)}`;
}
