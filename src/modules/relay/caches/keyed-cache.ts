/**
 * Entries loaded from the database on first use and kept until invalidated. Concurrent
 * misses for one key share a single read; a miss that finds nothing is remembered too
 * (bounded), so unknown keys do not reach the database on every request.
 */
export class KeyedCache<V> {
  private readonly entries = new Map<string, V | null>();
  private readonly pending = new Map<string, Promise<V | null>>();
  /** Bumped by every invalidation, so a read that started before one is not stored after it. */
  private generation = 0;

  constructor(
    private readonly load: (key: string) => Promise<V | null>,
    private readonly maxEntries = 100_000,
  ) {}

  /** The cached value, or undefined when it must be loaded. */
  peek(key: string): V | null | undefined {
    return this.entries.get(key);
  }

  get(key: string): Promise<V | null> {
    const cached = this.entries.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let loading = this.pending.get(key);
    if (!loading) {
      const generation = this.generation;
      loading = this.load(key).finally(() => this.pending.delete(key));
      loading.then(
        (value) => {
          if (generation !== this.generation) return;
          if (this.entries.size >= this.maxEntries) this.entries.clear();
          this.entries.set(key, value);
        },
        () => undefined,
      );
      this.pending.set(key, loading);
    }
    return loading;
  }

  invalidate(key?: string): void {
    this.generation++;
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }
}
