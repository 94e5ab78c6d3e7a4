import type { MessageTable } from '../message-table';

/** Messages of channels, tokens, logs, pricing and the relay. */
export const relayMessages = {} satisfies MessageTable;
