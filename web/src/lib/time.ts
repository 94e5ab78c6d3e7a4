const pad = (value: number) => String(value).padStart(2, '0');

/** A Date as `yyyy-MM-dd HH:mm:ss` in local time (the format the token expiry field uses). */
export function formatDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Unix seconds as `yyyy-MM-dd HH:mm:ss`; 0 shows as a dash. */
export function formatTimestamp(seconds: number): string {
  return seconds ? formatDateTime(new Date(seconds * 1000)) : '-';
}

/** Parses `yyyy-MM-dd HH:mm:ss` (or `yyyy-MM-ddTHH:mm[:ss]`) in local time; null when it is not a real date. */
export function parseDateTime(text: string): Date | null {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const date = new Date(year, month - 1, day, hour, minute, second || 0);
  const valid = date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day && hour < 24 && minute < 60 && (second || 0) < 60;
  return valid ? date : null;
}

/** Unix seconds → the value of a datetime-local input (empty for 0). */
export function toInputValue(seconds: number): string {
  if (!seconds) return '';
  const date = new Date(seconds * 1000);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local input's value → unix seconds (0 when empty or invalid). */
export function fromInputValue(value: string): number {
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? 0 : Math.floor(time / 1000);
}
