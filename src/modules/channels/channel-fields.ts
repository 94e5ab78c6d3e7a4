import { AppError } from '../../common/errors/app-error';
import type { MessageCode } from '../../common/i18n/catalogue';

export const MAX_GROUP_NAME = 64;
export const MAX_MODEL_NAME = 255;
/** A single upstream key; keeps the encrypted value well inside a TEXT column. */
export const MAX_SINGLE_KEY = 8192;

/**
 * "a, b,,A" → ["a", "b"]: trimmed, without blanks or repeats, in first-seen order. Repeats
 * are found ignoring case, because MySQL's collation would see them as one ability key.
 */
export function splitList(raw: string | null | undefined): string[] {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const item of (raw ?? '').split(',').map((part) => part.trim())) {
    if (!item || seen.has(item.toLowerCase())) continue;
    seen.add(item.toLowerCase());
    items.push(item);
  }
  return items;
}

export function normaliseModels(raw: string | null | undefined): string {
  const models = splitList(raw);
  if (models.length === 0) throw new AppError('channel.models_required');
  const tooLong = models.find((model) => model.length > MAX_MODEL_NAME);
  if (tooLong) throw new AppError('channel.model_name_too_long', { model: tooLong.slice(0, 40) });
  return models.join(',');
}

/** Channels without a group serve the default group. */
export function normaliseGroups(raw: string | null | undefined): string {
  const groups = splitList(raw);
  const tooLong = groups.find((group) => group.length > MAX_GROUP_NAME);
  if (tooLong) throw new AppError('channel.group_name_too_long', { group: tooLong.slice(0, 40) });
  return groups.length ? groups.join(',') : 'default';
}

/**
 * The console appends paths itself, so a trailing slash would double up. The URL must parse
 * as http(s) without credentials or a fragment, and carry no control characters, raw or
 * percent-encoded (`%0d%0a` would split the upstream request's head).
 */
export function normaliseBaseUrl(raw: string): string {
  const url = raw.trim().replace(/\/+$/, '');
  if (url === '') return url;
  if (!/^https?:\/\/\S+$/i.test(url)) throw new AppError('channel.base_url_invalid');
  if (/%(?:[01][0-9a-f]|7f)/i.test(url)) throw new AppError('channel.base_url_malformed');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('channel.base_url_malformed');
  }
  if (parsed.username || parsed.password || parsed.hash) throw new AppError('channel.base_url_malformed');
  return url;
}

function parseObject(field: string, raw: string, code: MessageCode): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new AppError(code, { field });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AppError(code, { field });
  return parsed as Record<string, unknown>;
}

/** Blank means "none" (stored as null); anything else must be a JSON object. */
export function normaliseJsonObject(field: string, raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined || raw.trim() === '') return null;
  parseObject(field, raw, 'channel.invalid_json');
  return raw.trim();
}

/** model_mapping maps a requested model name to the upstream one: strings only. */
export function normaliseModelMapping(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined || raw.trim() === '') return null;
  const mapping = parseObject('model_mapping', raw, 'channel.model_mapping_invalid');
  if (!Object.values(mapping).every((value) => typeof value === 'string')) throw new AppError('channel.model_mapping_invalid');
  return raw.trim();
}

export function normaliseTag(raw: string | null | undefined): string | null {
  const tag = (raw ?? '').trim();
  return tag === '' ? null : tag;
}

export function assertKeyLength(key: string): void {
  if (key.length > MAX_SINGLE_KEY) throw new AppError('channel.key_too_long');
}
