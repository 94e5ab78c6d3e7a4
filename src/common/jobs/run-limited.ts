/**
 * Runs `work` over `items` with at most `limit` at a time. `keepGoing` is asked before each
 * item starts, so a job can stop picking up work at its deadline. Answers how many items
 * finished without throwing; a throwing item is reported to `onError` and the rest go on.
 */
export async function runLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  options: { keepGoing?: () => boolean; onError?: (item: T, error: unknown) => void } = {},
): Promise<number> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length && (options.keepGoing?.() ?? true)) {
      const item = items[next++];
      try {
        await work(item);
        done++;
      } catch (error) {
        options.onError?.(item, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return done;
}
