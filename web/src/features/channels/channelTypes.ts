import { CHANNEL_TYPE_ROWS, channelTypeRow, isRelayable, type ChannelTypeRow } from '@shared/channel-types';

// The catalogue lives with the server (src/modules/channels/channel-types.ts), so the console
// offers exactly the kinds the server serves; only display helpers are kept here.
export type { ChannelTypeRow } from '@shared/channel-types';

/** Every type the editor offers for a new channel; a retired type is shown only on its existing channels. */
export const CHANNEL_TYPE_OPTIONS = CHANNEL_TYPE_ROWS.map((row) => ({ id: row.type, name: row.name, retired: !isRelayable(row) }));

export function channelTypeName(type: number): string {
  return channelTypeRow(type)?.name ?? `#${type}`;
}

/** A balance in the currency the provider's balance API answers in. */
export function renderBalance(type: number, balance: number): string {
  return `${channelTypeRow(type)?.balance?.currency === 'CNY' ? '¥' : '$'}${balance.toFixed(2)}`;
}

/** The catalogue row of a channel type (key format, default base URL, the `other` field). */
export function channelProvider(type: number): ChannelTypeRow | undefined {
  return channelTypeRow(type);
}
