/** Waits until `condition` holds or `timeoutMs` passes, for effects that happen off the request path. */
export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
}
