/** A copy of `set` with `item` removed if present, added if not; for React state updates, which must not mutate. */
export function withToggled<T>(set: ReadonlySet<T>, item: T): Set<T> {
  const next = new Set(set);
  if (next.has(item)) next.delete(item);
  else next.add(item);
  return next;
}
