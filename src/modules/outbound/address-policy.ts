import { BlockList, isIP } from 'node:net';

/**
 * Where an outbound address may lead. `forbidden` is never dialled (link-local and cloud
 * metadata, "this network", multicast, reserved); `private` (loopback, RFC 1918, CGNAT,
 * unique-local) only when root has allowed private networks; `public` always.
 */
export type AddressClass = 'public' | 'private' | 'forbidden';

const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['169.254.0.0', 16],
  ['192.0.2.0', 24],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['fe80::', 10],
  ['ff00::', 8],
  ['100::', 64],
  // Teredo carries an obfuscated IPv4 address; local-use NAT64 (RFC 8215) an IPv4 address at a
  // position only the operator knows, so neither can be judged by the address it leads to.
  ['2001::', 32],
  ['64:ff9b:1::', 48],
  ['2001:db8::', 32],
  // AWS's IPv6 instance-metadata address sits inside the unique-local range.
  ['fd00:ec2::254', 128],
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

const privateNetworks = new BlockList();
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['192.0.0.0', 24],
  ['198.18.0.0', 15],
] as const) {
  privateNetworks.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  // Deprecated site-local addresses, still routed inside some networks.
  ['fec0::', 10],
] as const) {
  privateNetworks.addSubnet(network, prefix, 'ipv6');
}

/** IPv6 forms that carry an IPv4 address (mapped, deprecated IPv4-compatible, NAT64, 6to4): judged by that IPv4 address. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) return hexPairToIpv4(hex[1], hex[2]);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) return hexPairToIpv4(sixToFour[1], sixToFour[2]);
  return undefined;
}

function hexPairToIpv4(high: string, low: string): string {
  const a = parseInt(high, 16);
  const b = parseInt(low, 16);
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}

/**
 * Verdicts by address. A gateway dials a handful of upstream addresses over and over, and the
 * BlockList checks cost more than the rest of the per-request guard, so each address is judged once.
 */
const classified = new Map<string, AddressClass>();
const CLASSIFIED_LIMIT = 4096;

/** Classifies one literal IP address (v4 or v6, without brackets). Anything unparseable is forbidden. */
export function classifyAddress(address: string): AddressClass {
  let verdict = classified.get(address);
  if (verdict === undefined) {
    if (classified.size >= CLASSIFIED_LIMIT) classified.clear();
    verdict = classifyUncached(address);
    classified.set(address, verdict);
  }
  return verdict;
}

function classifyUncached(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'forbidden';
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return classifyUncached(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (forbidden.check(address, type)) return 'forbidden';
  if (privateNetworks.check(address, type)) return 'private';
  return 'public';
}

/**
 * Ports of services that do not speak HTTP and must never receive a gateway request, whatever
 * the host: the Fetch standard's "bad ports" plus common databases, caches and the Docker API.
 */
const REFUSED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723,
  2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
  // Databases, caches, queues and daemons that answer on a TCP port of their own.
  1433, 1521, 2375, 2376, 2379, 3306, 5432, 5672, 6379, 9042, 11211, 27017,
]);

/** Host names that only ever mean a cloud metadata service. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

export type RefusalReason = 'scheme' | 'credentials' | 'port' | 'metadata_host' | 'forbidden_address' | 'private_address' | 'unresolvable';

/** Why an outbound URL was refused; the message names the setting when root could allow it. */
export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';

  constructor(
    readonly reason: RefusalReason,
    readonly host: string,
  ) {
    super(`outbound request to ${host} refused: ${reason}`);
    this.name = 'OutboundRefusedError';
  }
}

export interface OutboundPolicy {
  /** Root's setting: loopback and private ranges may be dialled (Ollama on localhost, a LAN). */
  allowPrivate: boolean;
}

/** `[::1]` → `::1`; other host names unchanged, lower-cased, without a trailing dot. */
export function bareHost(hostname: string): string {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return host.toLowerCase().replace(/\.$/, '');
}

/** Throws unless this resolved (or literal) address may be dialled under the policy. */
export function assertAddressAllowed(address: string, host: string, policy: OutboundPolicy): void {
  const kind = classifyAddress(address);
  if (kind === 'forbidden') throw new OutboundRefusedError('forbidden_address', host);
  if (kind === 'private' && !policy.allowPrivate) throw new OutboundRefusedError('private_address', host);
}

/**
 * The checks that need no DNS: scheme, credentials, port, metadata names, and literal IPs.
 * The WHATWG URL parser has already turned numeric tricks (`2130706433`, `0x7f000001`,
 * `0177.1`) into dotted form, so a literal is judged as the address it really is.
 * Answers the literal address, or undefined when the host is a name still to resolve.
 */
export function checkUrlWithoutDns(url: URL, policy: OutboundPolicy): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError('scheme', url.host);
  if (url.username || url.password) throw new OutboundRefusedError('credentials', url.host);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (REFUSED_PORTS.has(port)) throw new OutboundRefusedError('port', url.host);
  const host = bareHost(url.hostname);
  if (METADATA_HOSTS.has(host)) throw new OutboundRefusedError('metadata_host', url.host);
  if (isIP(host) !== 0) {
    assertAddressAllowed(host, url.host, policy);
    return host;
  }
  return undefined;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (dns.lookup with all: true, or a test's stand-in). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/**
 * Resolves a host name and checks every address it has (one bad record refuses the lot, so a
 * mixed answer cannot slip through). Answers the validated addresses: the only ones a
 * connection may then use, so a second, rebinding answer never reaches the socket.
 */
export async function resolveAllowedHost(hostname: string, policy: OutboundPolicy, resolve: Resolver): Promise<ResolvedAddress[]> {
  const host = bareHost(hostname);
  if (METADATA_HOSTS.has(host)) throw new OutboundRefusedError('metadata_host', hostname);
  if (isIP(host) !== 0) {
    assertAddressAllowed(host, hostname, policy);
    return [{ address: host, family: isIP(host) }];
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new OutboundRefusedError('unresolvable', hostname);
  }
  if (addresses.length === 0) throw new OutboundRefusedError('unresolvable', hostname);
  for (const { address } of addresses) assertAddressAllowed(address, hostname, policy);
  return addresses;
}

/** The whole decision for one URL: the checks that need no DNS, then the resolved addresses. */
export async function resolveAllowedAddresses(url: URL, policy: OutboundPolicy, resolve: Resolver): Promise<ResolvedAddress[]> {
  checkUrlWithoutDns(url, policy);
  return resolveAllowedHost(url.hostname, policy, resolve);
}
