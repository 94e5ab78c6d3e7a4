/**
 * Which upstream failures another channel may fix. Rate limits, server errors and a rejected
 * channel key are the channel's problem; 504/524 mean the upstream already spent the full time
 * on this request, and other 4xx answers are the request's own fault, passed to the client.
 */
export function isRetryableStatus(status: number): boolean {
  if (status === 401 || status === 429) return true;
  if (status === 504 || status === 524) return false;
  return status >= 500 && status <= 599;
}

/** How many more channels to try after the first, from the RetryTimes option. */
export function attemptsAllowed(retryTimes: number): number {
  return 1 + Math.max(0, Math.floor(retryTimes));
}
