import { checkUrlWithoutDns, resolveAllowedHost, type OutboundPolicy } from '../src/modules/outbound/address-policy';

const ITERATIONS = 200_000;
const CONNECT_ITERATIONS = 20_000;

/**
 * The outbound guard's own cost, measured in-process: the URL check every relay call pays,
 * and the address check each new upstream connection pays (pooled connections skip it).
 * DNS itself is left out (an in-memory resolver), as it is the same with or without the guard.
 */
export async function guardCostMicros(): Promise<{ perRequest: number; perNewConnection: number }> {
  const policy: OutboundPolicy = { allowPrivate: false };
  const url = new URL('https://api.openai.example/v1/chat/completions');
  let started = performance.now();
  for (let index = 0; index < ITERATIONS; index++) checkUrlWithoutDns(url, policy);
  const perRequest = ((performance.now() - started) * 1000) / ITERATIONS;
  const resolver = () => Promise.resolve([{ address: '93.184.216.34', family: 4 }]);
  started = performance.now();
  for (let index = 0; index < CONNECT_ITERATIONS; index++) await resolveAllowedHost('api.openai.example', policy, resolver);
  const perNewConnection = ((performance.now() - started) * 1000) / CONNECT_ITERATIONS;
  return { perRequest: Math.round(perRequest * 100) / 100, perNewConnection: Math.round(perNewConnection * 100) / 100 };
}
