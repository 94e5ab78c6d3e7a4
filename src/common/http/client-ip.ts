import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * Which hops in front of us are our own proxies (TRUST_PROXY): none, the nearest N, or those
 * inside the listed networks. The client is the right-most address that is not one of them,
 * so a client cannot choose its own address by sending X-Forwarded-For.
 */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'networks'; networks: string[] };

/** `addr` at position `hop` (0 = the socket peer, then X-Forwarded-For from the right) is a proxy of ours. */
export type HopTrust = (address: string, hop: number) => boolean;

/** `::ffff:10.0.0.1` → `10.0.0.1`, so IPv4 networks match sockets accepted on a dual-stack port. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * Parses TRUST_PROXY: `false`/empty (trust nobody), `true` (one proxy, as docker-compose's
 * single reverse proxy), a hop count, or a comma-separated list of proxy IPs and CIDRs.
 * Answers undefined when the value is none of those.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy | undefined {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return { kind: 'none' };
  if (value === 'true') return { kind: 'hops', hops: 1 };
  if (/^\d+$/.test(value)) return { kind: 'hops', hops: Number(value) };
  const networks = value.split(',').map((part) => part.trim()).filter(Boolean);
  const valid = networks.every((network) => {
    const [address, prefix, ...rest] = network.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return false;
    if (prefix === undefined) return true;
    return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  });
  return valid && networks.length > 0 ? { kind: 'networks', networks } : undefined;
}

export function hopTrust(trust: TrustProxy): HopTrust {
  switch (trust.kind) {
    case 'none':
      return () => false;
    case 'hops':
      return (_address, hop) => hop < trust.hops;
    case 'networks': {
      const list = new BlockList();
      for (const network of trust.networks) {
        const [address, prefix] = network.split('/');
        const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
        if (prefix === undefined) list.addAddress(address, type);
        else list.addSubnet(address, Number(prefix), type);
      }
      return (address) => {
        const plain = plainAddress(address);
        const family = isIP(plain);
        return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
      };
    }
  }
}

/** The client address of a raw request, by the same rule Express applies to `request.ip`. */
export function clientIp(request: IncomingMessage, trusted: HopTrust): string {
  const socketAddress = plainAddress(request.socket.remoteAddress ?? '');
  if (!trusted(socketAddress, 0)) return socketAddress;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((part) => part.trim()).filter(Boolean);
  let client = socketAddress;
  for (let hop = 1; hop <= forwarded.length; hop++) {
    client = plainAddress(forwarded[forwarded.length - hop]);
    if (!trusted(client, hop)) return client;
  }
  return client;
}
