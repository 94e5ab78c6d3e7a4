import { BUILT_IN_ICONS } from './modelMeta';

/** The server's rule (isValidIcon): empty, a built-in key, or an https URL. */
export function isIconValue(raw: string): boolean {
  const icon = raw.trim();
  if (icon === '' || icon in BUILT_IN_ICONS) return true;
  if (/[\s"'<>\\]/.test(icon)) return false;
  try {
    return new URL(icon).protocol === 'https:';
  } catch {
    return false;
  }
}
