import type { RelayCaller } from '../relay-caller';
import { RelayError } from '../relay-error';
import { fallbackChain, fallsBack } from './model-fallbacks';

const callerWith = (modelFallbacks: string[] | null) => ({ token: { modelFallbacks } }) as unknown as RelayCaller;

describe('fallbackChain', () => {
  const setting = { 'gpt-4o': ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4-5', 'gpt-4o-mini'] };

  it("takes the setting's list without the requested model or repeats", () => {
    expect(fallbackChain(callerWith(null), 'gpt-4o', {}, setting)).toEqual(['gpt-4o-mini', 'claude-sonnet-4-5']);
  });

  it("lets the token's own list replace the setting's, for any model", () => {
    expect(fallbackChain(callerWith(['deepseek-chat']), 'gpt-4o', {}, setting)).toEqual(['deepseek-chat']);
    expect(fallbackChain(callerWith(['deepseek-chat']), 'o3', {}, setting)).toEqual(['deepseek-chat']);
  });

  it('has none for other models, for names of Object members, and for multipart bodies', () => {
    expect(fallbackChain(callerWith(null), 'o3', {}, setting)).toEqual([]);
    expect(fallbackChain(callerWith(null), 'constructor', {}, setting)).toEqual([]);
    expect(fallbackChain(callerWith(null), 'gpt-4o', undefined, setting)).toEqual([]);
  });
});

describe('fallsBack', () => {
  it('on faults that are not the client’s', () => {
    expect(fallsBack(new RelayError('channel:server_error', 'boom', 500, false, 500))).toBe(true);
    expect(fallsBack(new RelayError('channel:rate_limited', 'slow down', 429, false, 429))).toBe(true);
    expect(fallsBack(new RelayError('channel:timeout', 'late', 504))).toBe(true);
    expect(fallsBack(new RelayError('channel:connection_error', 'unreachable', 502))).toBe(true);
    expect(fallsBack(new RelayError('upstream_request_error', 'gateway timeout', 504, true, 504))).toBe(true);
    expect(fallsBack(new RelayError('no_available_channel', 'none', 503))).toBe(true);
  });

  it('not on the client’s errors, content refusals or the gateway’s own limits', () => {
    expect(fallsBack(new RelayError('upstream_request_error', 'bad messages', 400, true, 400))).toBe(false);
    const refusal = new RelayError('upstream_request_error', 'rejected', 400, true, 400);
    refusal.wireCode = 'content_policy_violation';
    expect(fallsBack(refusal)).toBe(false);
    expect(fallsBack(new RelayError('channel:server_error', 'The response was filtered due to the content management policy', 500, false, 500))).toBe(false);
    expect(fallsBack(new RelayError('response_too_large', 'too large', 502))).toBe(false);
    expect(fallsBack(new RelayError('invalid_request', 'The client closed the connection', 499))).toBe(false);
  });
});
