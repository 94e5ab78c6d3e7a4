/** A configured chat link: {name: url} with {key} and {address} placeholders. */
export type ChatLinkEntry = Record<string, string>;

export interface ChatLink {
  name: string;
  url: string;
}

/** Reads status.chats into name/url pairs; null when the configuration is not a list of such maps. */
export function parseChatLinks(chats: unknown): ChatLink[] | null {
  if (chats === undefined || chats === null || chats === '') return [];
  let value: unknown = chats;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(value)) return null;
  const links: ChatLink[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) return null;
    for (const [name, url] of Object.entries(entry as ChatLinkEntry)) {
      if (typeof url !== 'string') return null;
      links.push({ name, url });
    }
  }
  return links;
}

/** Fills {key} (with the sk- key) and {address} (the server address) into a chat link. */
export function fillChatLink(url: string, key: string, address: string): string {
  return url.replaceAll('{key}', key).replaceAll('{address}', encodeURIComponent(address));
}
