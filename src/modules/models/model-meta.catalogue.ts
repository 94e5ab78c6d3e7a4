import type { Modality, ModelTag } from './model-meta.wire';

export const MODEL_TAGS = ['chat', 'vision', 'tools', 'reasoning', 'embedding', 'image', 'audio', 'video'] as const satisfies readonly ModelTag[];
export const MODALITIES = ['text', 'image', 'audio', 'video', 'file', 'embedding'] as const satisfies readonly Modality[];

/**
 * Icons the console draws itself (a coloured monogram per key), so a page never loads a third-party
 * image unless an administrator gives an https URL. Keep in step with web/src/features/models/icons.ts.
 */
export const BUILT_IN_ICON_KEYS = [
  'openai', 'anthropic', 'google', 'deepseek', 'qwen', 'zhipu', 'moonshot', 'meta', 'mistral', 'xai', 'baidu', 'tencent', 'minimax', 'cohere', 'midjourney', 'suno',
] as const;

export const MAX_MODEL_NAME_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 1000;
export const MAX_VENDOR_NAME_LENGTH = 64;
export const MAX_ICON_LENGTH = 255;
/** Ten million tokens: above any model today, far below the integer column's range. */
export const MAX_TOKEN_COUNT = 10_000_000;

/** An icon is empty, a built-in key, or an https URL without spaces or quotes. */
export function isValidIcon(icon: string): boolean {
  if (icon === '') return true;
  if ((BUILT_IN_ICON_KEYS as readonly string[]).includes(icon)) return true;
  if (icon.length > MAX_ICON_LENGTH || /[\s"'<>\\]/.test(icon)) return false;
  try {
    return new URL(icon).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Comma-separated column text → the known values in catalogue order (unknown and repeated ones dropped). */
export function parseList<T extends string>(stored: string, known: readonly T[]): T[] {
  const given = new Set(stored.split(',').map((item) => item.trim().toLowerCase()));
  return known.filter((item) => given.has(item));
}

export function joinList(items: readonly string[]): string {
  return items.join(',');
}
