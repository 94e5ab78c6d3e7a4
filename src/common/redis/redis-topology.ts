import type { Cluster, Redis, RedisOptions } from 'ioredis';

/** One Redis endpoint of a Sentinel set or a Cluster. */
export interface RedisEndpoint {
  host: string;
  port: number;
}

/**
 * What REDIS_CONN_STRING names: one server (`redis://`, or `rediss://` over TLS), a Sentinel set
 * (`redis-sentinel://[:password@]host:26379,host2:26379/mymaster`) or a Cluster
 * (`redis-cluster://[:password@]host:7000,host:7001`). The two multi-host forms take `?tls=true`,
 * and the Sentinel form `?sentinel_password=` when the sentinels ask for one of their own.
 */
export type RedisTopology =
  | { kind: 'single'; url: string }
  | { kind: 'sentinel'; sentinels: RedisEndpoint[]; masterName: string; db: number; username?: string; password?: string; sentinelPassword?: string; tls: boolean }
  | { kind: 'cluster'; nodes: RedisEndpoint[]; username?: string; password?: string; tls: boolean };

/** Any of the three connections: the commands the gateway uses exist on both classes. */
export type RedisClient = Redis | Cluster;

const MULTI_HOST_FORM = /^(redis-sentinel|redis-cluster):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#]+)(?:\/([^?#]*))?(?:\?([^#]*))?$/;
const DEFAULT_PORTS = { 'redis-sentinel': 26379, 'redis-cluster': 6379 } as const;

/** Reads REDIS_CONN_STRING; throws a message naming the expected forms when it fits none. */
export function parseRedisConnString(connString: string): RedisTopology {
  if (/^rediss?:\/\//.test(connString)) return { kind: 'single', url: connString };
  const match = MULTI_HOST_FORM.exec(connString);
  if (!match) {
    throw new Error('REDIS_CONN_STRING must start with redis://, rediss://, redis-sentinel://host:26379,host2:26379/mastername or redis-cluster://host:7000,host2:7001');
  }
  const scheme = match[1] as 'redis-sentinel' | 'redis-cluster';
  const [, , rawUser, rawPassword, hostList, rawPath = '', query = ''] = match;
  const params = new URLSearchParams(query);
  const endpoints = hostList.split(',').map((entry) => parseEndpoint(entry.trim(), DEFAULT_PORTS[scheme]));
  const credentials = { username: rawUser ? decodeURIComponent(rawUser) : undefined, password: rawPassword ? decodeURIComponent(rawPassword) : undefined };
  const tls = params.get('tls') === 'true' || params.get('tls') === '1';
  if (scheme === 'redis-cluster') return { kind: 'cluster', nodes: endpoints, ...credentials, tls };
  const [masterName, db = '0'] = rawPath.split('/');
  if (!masterName) throw new Error('REDIS_CONN_STRING: a Sentinel form names its master after the hosts: redis-sentinel://host:26379/mymaster');
  if (!/^\d+$/.test(db)) throw new Error('REDIS_CONN_STRING: the database after the master name must be a number');
  const sentinelPassword = params.get('sentinel_password') ?? undefined;
  return { kind: 'sentinel', sentinels: endpoints, masterName: decodeURIComponent(masterName), db: Number(db), ...credentials, sentinelPassword, tls };
}

function parseEndpoint(entry: string, defaultPort: number): RedisEndpoint {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(entry);
  const parts = bracketed ?? plain;
  if (!parts) throw new Error(`REDIS_CONN_STRING: "${entry}" is not host:port`);
  return { host: parts[1], port: parts[2] ? Number(parts[2]) : defaultPort };
}

/** The passwords a connection string carries, so the logger can scrub them. */
export function redisConnStringPasswords(connString: string): string[] {
  try {
    const topology = parseRedisConnString(connString);
    if (topology.kind === 'single') return [decodeURIComponent(new URL(topology.url).password)].filter(Boolean);
    return [topology.password, topology.kind === 'sentinel' ? topology.sentinelPassword : undefined].filter((secret): secret is string => Boolean(secret));
  } catch {
    return [];
  }
}

/**
 * A write that lands on a server that has just become a replica (a Sentinel failover, a Cluster
 * node coming back as replica) answers READONLY: reconnecting makes ioredis ask again for the
 * master, and the command is retried there.
 */
function reconnectOnReadOnly(error: Error): boolean | 2 {
  return error.message.startsWith('READONLY') ? 2 : false;
}

/** Options shared by every connection: commands wait briefly for a reconnect, then fail. */
const COMMON_OPTIONS: RedisOptions = { maxRetriesPerRequest: 2, enableOfflineQueue: true, reconnectOnError: reconnectOnReadOnly };

/**
 * Opens a connection to the topology; ioredis follows Sentinel failovers and Cluster slot moves by itself.
 * A `subscriber` connection does not resubscribe by itself after a reconnect: ioredis sends that
 * SUBSCRIBE without a catch, so a connection lost again before the reply became an unhandled
 * rejection, which ends a Node process. Its owner subscribes again on each `ready` instead.
 */
export function connectRedis(topology: RedisTopology, role: 'commands' | 'subscriber' = 'commands'): RedisClient {
  // ioredis loads with the first connection: a gateway without REDIS_CONN_STRING never holds it (issue 32).
  const { Redis, Cluster } = require('ioredis') as typeof import('ioredis');
  const options: RedisOptions = { ...COMMON_OPTIONS, autoResubscribe: role !== 'subscriber' };
  switch (topology.kind) {
    case 'single':
      return new Redis(topology.url, { ...options, lazyConnect: false });
    case 'sentinel':
      return new Redis({
        ...options,
        sentinels: topology.sentinels,
        name: topology.masterName,
        db: topology.db,
        username: topology.username,
        password: topology.password,
        sentinelPassword: topology.sentinelPassword,
        tls: topology.tls ? {} : undefined,
        sentinelTLS: topology.tls ? {} : undefined,
        enableTLSForSentinelMode: topology.tls,
        // Learns of a failover from the sentinels' +switch-master at once, instead of on the next failed command.
        failoverDetector: true,
      });
    case 'cluster':
      return new Cluster(topology.nodes, {
        enableOfflineQueue: true,
        retryDelayOnFailover: 200,
        retryDelayOnClusterDown: 200,
        redisOptions: { ...COMMON_OPTIONS, username: topology.username, password: topology.password, tls: topology.tls ? {} : undefined },
      });
  }
}
