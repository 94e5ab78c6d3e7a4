import { tokensApi, TOKEN_ENABLED } from '../tokens/api';
import { fillChatLink, parseChatLinks } from '../tokens/chatLinks';
import type { SystemStatus } from '../status/types';

/** How many tokens the chat pages look through for an enabled one. */
const TOKEN_LOOKUP_SIZE = 100;

/** `signIn`: the link needs a token ({key}) and nobody is signed in. */
export type ChatTarget = { ok: true; url: string } | { ok: false; reason: 'noLink' | 'badLink' | 'noToken' | 'signIn' };

/**
 * The chat link at `index`, filled with the server address and, when it has a {key} placeholder, with the user's
 * first enabled token (of the first 100). A link without {key} needs no account, so /chat/{id} is public.
 */
export async function chatTarget(status: Partial<SystemStatus>, index: number, signedIn = true): Promise<ChatTarget> {
  const links = parseChatLinks(status.chats);
  if (links === null) return { ok: false, reason: 'badLink' };
  const link = links[index];
  if (!link) return { ok: false, reason: 'noLink' };
  const address = status.server_address || window.location.origin;
  if (!link.url.includes('{key}')) return { ok: true, url: fillChatLink(link.url, '', address) };
  if (!signedIn) return { ok: false, reason: 'signIn' };
  const tokens = await tokensApi.list(1, TOKEN_LOOKUP_SIZE);
  const token = tokens.ok ? tokens.data.items.find((item) => item.status === TOKEN_ENABLED) : undefined;
  if (!token) return { ok: false, reason: 'noToken' };
  return { ok: true, url: fillChatLink(link.url, token.key, address) };
}
