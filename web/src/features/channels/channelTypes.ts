import { CHANNEL_PROVIDERS, CHANNEL_TYPES, type ChannelProviderInfo } from '@shared/channel-types';

// The table itself lives with the server (src/modules/channels/channel-types.ts), so the console
// offers exactly the kinds the server validates against; only display helpers are kept here.
export { CHANNEL_TYPE_SPARK, SPARK_DEFAULT_VERSION } from '@shared/channel-types';
export type { ChannelProviderInfo } from '@shared/channel-types';

export const CHANNEL_TYPE_OPTIONS = Object.entries(CHANNEL_TYPES).map(([id, name]) => ({ id: Number(id), name }));

export function channelTypeName(type: number): string {
  return CHANNEL_TYPES[type] ?? `#${type}`;
}

/** Providers whose balance API answers in yuan (Moonshot, SiliconFlow, DeepSeek); the rest in dollars. */
const YUAN_BALANCE_TYPES = new Set([25, 40, 43]);

export function renderBalance(type: number, balance: number): string {
  return `${YUAN_BALANCE_TYPES.has(type) ? '¥' : '$'}${balance.toFixed(2)}`;
}

/** The relay's metadata of a channel type (key format, default base URL), when the relay speaks to it. */
export function channelProvider(type: number): ChannelProviderInfo | undefined {
  return CHANNEL_PROVIDERS[type];
}
