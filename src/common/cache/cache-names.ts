/**
 * Caches kept in memory for the relay, by name. Every write to the underlying rows must call
 * CacheSyncService.invalidate(name, key) with the key noted here.
 */
export const CACHE_NAMES = {
  /** key: the user id. Status, role, group, deletion and settings. */
  users: 'users',
  /** key: the token key (the 48 characters without `sk-`); no key reloads every token. */
  tokens: 'tokens',
  /** no key: channels and abilities reload together. */
  channels: 'channels',
  /** no key: options reload. */
  options: 'options',
} as const;
