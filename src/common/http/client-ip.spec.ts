import type { IncomingMessage } from 'node:http';
import { clientIp, hopTrust, parseTrustProxy } from './client-ip';

function request(socket: string, forwarded?: string): IncomingMessage {
  return { socket: { remoteAddress: socket }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } } as unknown as IncomingMessage;
}

describe('client IP behind trusted proxies', () => {
  it('parses TRUST_PROXY as nothing, a hop count or proxy networks', () => {
    expect(parseTrustProxy(undefined)).toEqual({ kind: 'none' });
    expect(parseTrustProxy('false')).toEqual({ kind: 'none' });
    expect(parseTrustProxy('true')).toEqual({ kind: 'hops', hops: 1 });
    expect(parseTrustProxy('2')).toEqual({ kind: 'hops', hops: 2 });
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1, fd00::/8')).toEqual({ kind: 'networks', networks: ['10.0.0.0/8', '127.0.0.1', 'fd00::/8'] });
    expect(parseTrustProxy('yes')).toBeUndefined();
    expect(parseTrustProxy('10.0.0.0/33')).toBeUndefined();
  });

  it('takes the right-most address that is not a trusted proxy', () => {
    const none = hopTrust({ kind: 'none' });
    const oneHop = hopTrust({ kind: 'hops', hops: 1 });
    const twoHops = hopTrust({ kind: 'hops', hops: 2 });
    const networks = hopTrust({ kind: 'networks', networks: ['127.0.0.1', '10.0.0.0/8'] });
    expect(clientIp(request('::ffff:127.0.0.1', '6.6.6.6'), none)).toBe('127.0.0.1');
    expect(clientIp(request('127.0.0.1', '6.6.6.6, 198.51.100.7'), oneHop)).toBe('198.51.100.7');
    expect(clientIp(request('127.0.0.1', '6.6.6.6, 198.51.100.7, 10.1.1.1'), twoHops)).toBe('198.51.100.7');
    expect(clientIp(request('127.0.0.1', '6.6.6.6, 198.51.100.7, 10.1.1.1'), networks)).toBe('198.51.100.7');
    expect(clientIp(request('10.0.0.2', '10.0.0.3, 10.0.0.4'), networks)).toBe('10.0.0.3');
    // A peer that is not our proxy cannot speak for anyone else.
    expect(clientIp(request('198.51.100.9', '6.6.6.6'), networks)).toBe('198.51.100.9');
    expect(clientIp(request('127.0.0.1'), oneHop)).toBe('127.0.0.1');
  });
});
