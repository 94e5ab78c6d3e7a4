import type { Modality, ModelTag } from '@shared/models/model-meta.wire';

/** The server's catalogues (src/modules/models/model-meta.catalogue.ts), in the same order. */
export const MODEL_TAGS: readonly ModelTag[] = ['chat', 'vision', 'tools', 'reasoning', 'embedding', 'image', 'audio', 'video'];
export const MODALITIES: readonly Modality[] = ['text', 'image', 'audio', 'video', 'file', 'embedding'];

/** Built-in icon keys and the colour of their monogram (server: BUILT_IN_ICON_KEYS). */
export const BUILT_IN_ICONS: Readonly<Record<string, { letter: string; color: string }>> = {
  openai: { letter: 'O', color: '#10a37f' },
  anthropic: { letter: 'A', color: '#d97757' },
  google: { letter: 'G', color: '#4285f4' },
  deepseek: { letter: 'D', color: '#4d6bfe' },
  qwen: { letter: 'Q', color: '#615ced' },
  zhipu: { letter: 'Z', color: '#3859ff' },
  moonshot: { letter: 'K', color: '#16191e' },
  meta: { letter: 'M', color: '#0668e1' },
  mistral: { letter: 'M', color: '#fa520f' },
  xai: { letter: 'X', color: '#000000' },
  baidu: { letter: 'B', color: '#2932e1' },
  tencent: { letter: 'T', color: '#0052d9' },
  minimax: { letter: 'M', color: '#f23f5d' },
  cohere: { letter: 'C', color: '#39594d' },
  midjourney: { letter: 'M', color: '#1a1a1a' },
  suno: { letter: 'S', color: '#f5a623' },
};

/** Token counts as people say them: 8191 → 8K, 65536 → 64K, 128000 → 128K, 1048576 → 1M; 0 (unknown) → ''. */
export function formatTokenCount(tokens: number): string {
  if (!tokens) return '';
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  // Powers of two read in binary thousands (65536 → 64K), the rest in decimal ones (128000 → 128K).
  if (tokens >= 1000) return `${(tokens & (tokens - 1)) === 0 ? tokens / 1024 : Math.round(tokens / 1000)}K`;
  return String(tokens);
}

/** Items grouped by their vendor id in the vendors' order, with vendor-less items last (id 0). */
export function groupByVendor<T extends { vendor_id: number }>(items: readonly T[], vendorOrder: readonly number[]): { vendorId: number; items: T[] }[] {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const key = vendorOrder.includes(item.vendor_id) ? item.vendor_id : 0;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === 0 ? 1 : b === 0 ? -1 : vendorOrder.indexOf(a) - vendorOrder.indexOf(b)))
    .map(([vendorId, grouped]) => ({ vendorId, items: grouped }));
}
