import { tokensApi, TOKEN_ENABLED } from '../tokens/api';
import { fillChatLink, parseChatLinks } from '../tokens/chatLinks';
import type { SystemStatus } from '../status/types';

/** How many tokens the chat pages look through for an enabled one. */
const TOKEN_LOOKUP_SIZE = 100;

export type ChatTarget = { ok: true; url: string } | { ok: false; reason: 'noLink' | 'badLink' | 'noToken' };

/**
 * The chat link at `index`, filled with the user's first enabled token (of the first 100) and
 * the server address.
 */
export async function chatTarget(status: Partial<SystemStatus>, index: number): Promise<ChatTarget> {
  const links = parseChatLinks(status.chats);
  if (links === null) return { ok: false, reason: 'badLink' };
  const link = links[index];
  if (!link) return { ok: false, reason: 'noLink' };
  const tokens = await tokensApi.list(1, TOKEN_LOOKUP_SIZE);
  const token = tokens.ok ? tokens.data.items.find((item) => item.status === TOKEN_ENABLED) : undefined;
  if (!token) return { ok: false, reason: 'noToken' };
  return { ok: true, url: fillChatLink(link.url, token.key, status.server_address || window.location.origin) };
}
