/** Parses a JSON object setting of a channel; anything else (empty, invalid, not an object) reads as {}. */
export function parseJsonObject<T extends object>(text: string | null | undefined): T {
  if (!text || !text.trim()) return {} as T;
  try {
    const value: unknown = JSON.parse(text);
    return (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as T;
  } catch {
    return {} as T;
  }
}
