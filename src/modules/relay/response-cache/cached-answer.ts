import type { BilledUsage } from '../../billing/billing-formula';

/** One stored answer: the client's bytes as the first call got them, and what that call was billed for. */
export interface CachedAnswer {
  bytes: Buffer;
  contentType: string;
  usage: BilledUsage;
  /** When it expires, on the routing clock (so every instance, and the tests, end it at one moment). */
  expiresAtMs: number;
}

/** What an entry is taken to cost beyond its bytes and key (the Map slot, the object, the usage). */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * The in-process cache: least recently used first out, bounded by the bytes of its entries.
 * The Map's order is the recency order (a hit is moved to its end).
 */
export class AnswerLru {
  private readonly entries = new Map<string, CachedAnswer>();
  private size = 0;

  /** The bytes held now. */
  get bytes(): number {
    return this.size;
  }

  get(key: string, nowMs: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAtMs <= nowMs) {
      this.size -= sizeOf(key, entry);
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  /** Stores the entry, dropping the least recently used until the whole fits in `maxBytes`. */
  set(key: string, entry: CachedAnswer, maxBytes: number): void {
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.size -= sizeOf(key, previous);
    }
    this.entries.set(key, entry);
    this.size += sizeOf(key, entry);
    for (const [oldKey, oldEntry] of this.entries) {
      if (this.size <= maxBytes) break;
      this.entries.delete(oldKey);
      this.size -= sizeOf(oldKey, oldEntry);
    }
  }
}

function sizeOf(key: string, entry: CachedAnswer): number {
  return entry.bytes.length + key.length + entry.contentType.length + ENTRY_OVERHEAD_BYTES;
}

/** An entry as one Redis value: a JSON line (content type, usage, expiry), then the answer's bytes as they are. */
export function encodeAnswer(entry: CachedAnswer): Buffer {
  const header = JSON.stringify({ type: entry.contentType, usage: entry.usage, expires: entry.expiresAtMs });
  return Buffer.concat([Buffer.from(`${header}\n`), entry.bytes]);
}

/** An entry read back from Redis, or undefined when the value is not one (another version wrote it, or it is damaged). */
export function decodeAnswer(value: Buffer): CachedAnswer | undefined {
  const newline = value.indexOf(0x0a);
  if (newline < 0) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(value.subarray(0, newline).toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null) return undefined;
  const { type, usage, expires } = header as { type?: unknown; usage?: Partial<Record<keyof BilledUsage, unknown>>; expires?: unknown };
  if (typeof type !== 'string' || typeof expires !== 'number' || !isBilledUsage(usage)) return undefined;
  return { bytes: value.subarray(newline + 1), contentType: type, usage, expiresAtMs: expires };
}

function isBilledUsage(usage: Partial<Record<keyof BilledUsage, unknown>> | undefined): usage is BilledUsage {
  if (typeof usage !== 'object' || usage === null) return false;
  const counts = [usage.promptTokens, usage.completionTokens, usage.cachedTokens];
  const optional = [usage.cacheWriteTokens, usage.audioInputTokens, usage.audioOutputTokens];
  return counts.every(isCount) && optional.every((count) => count === undefined || isCount(count));
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}
