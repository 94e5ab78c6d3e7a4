import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventually } from './until';

const run = promisify(execFile);

/** One redis-server process on a loopback port, started from the Debian binary. */
export interface RedisProcess {
  port: number;
  stop(): Promise<void>;
  /** Starts it again with the same arguments (a restart after `stop`). */
  start(): Promise<void>;
}

/** A free loopback port, asked of the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs redis-cli against a loopback port and answers its output. */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args]);
  return stdout.trim();
}

function redisProcess(port: number, args: string[]): RedisProcess {
  let child: ChildProcess | null = null;
  const handle: RedisProcess = {
    port,
    async start() {
      const started = spawn('redis-server', args, { stdio: 'ignore' });
      // The test stops it; an unreferenced handle never keeps jest waiting.
      started.unref();
      child = started;
      await eventually(async () => (await redisCli(port, 'PING').catch(() => '')) === 'PONG', 10_000);
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      // SIGTERM: a Redis 7 master waits for its replicas to catch up before it exits.
      running.kill('SIGTERM');
      await exited;
      child = null;
    },
  };
  return handle;
}

/** The Redis servers the topology tests start: whether the binaries are on this machine. */
export async function redisBinariesAvailable(): Promise<boolean> {
  try {
    await run('redis-server', ['--version']);
    await run('redis-cli', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** A Sentinel set: one master, one replica, three sentinels watching `mymaster`. */
export interface SentinelSet {
  connString: string;
  master: RedisProcess;
  replica: RedisProcess;
  sentinels: RedisProcess[];
  /** The port of the server the sentinels call master now. */
  masterPort(): Promise<number>;
  /** SENTINEL FAILOVER, then waits until the replica is master and the sentinels agree. */
  failover(): Promise<number>;
  stop(): Promise<void>;
}

const MASTER_NAME = 'mymaster';

/**
 * Starts a Sentinel set on loopback ports (redis-sentinel is redis-server started with
 * `--sentinel`, so Debian's redis-server package is enough). Fast timeouts keep a failover
 * within a few seconds.
 */
export async function startSentinelSet(): Promise<SentinelSet> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-sentinel-'));
  const [masterPort, replicaPort, ...sentinelPorts] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const dataArgs = (port: number) => ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--dbfilename', `dump-${port}.rdb`];
  const master = redisProcess(masterPort, dataArgs(masterPort));
  const replica = redisProcess(replicaPort, [...dataArgs(replicaPort), '--replicaof', '127.0.0.1', String(masterPort)]);
  await master.start();
  await replica.start();
  await eventually(async () => (await redisCli(replicaPort, 'INFO', 'replication')).includes('master_link_status:up'), 10_000);
  const sentinels = sentinelPorts.map((port) => {
    const file = path.join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      file,
      [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} 2`, `sentinel down-after-milliseconds ${MASTER_NAME} 1000`, `sentinel failover-timeout ${MASTER_NAME} 4000`, `sentinel parallel-syncs ${MASTER_NAME} 1`, ''].join('\n'),
    );
    return redisProcess(port, [file, '--sentinel']);
  });
  for (const sentinel of sentinels) await sentinel.start();
  // Every sentinel knows the replica and the other sentinels before a failover is asked for.
  await eventually(async () => {
    for (const sentinel of sentinels) {
      const answer = await redisCli(sentinel.port, 'SENTINEL', 'MASTER', MASTER_NAME);
      const fields = answer.split('\n');
      const value = (name: string) => Number(fields[fields.indexOf(name) + 1]);
      if (value('num-slaves') < 1 || value('num-other-sentinels') < 2) return false;
    }
    return true;
  }, 20_000);
  const masterPortNow = async () => Number((await redisCli(sentinels[0].port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)).split('\n')[1]);
  return {
    connString: `redis-sentinel://${sentinelPorts.map((port) => `127.0.0.1:${port}`).join(',')}/${MASTER_NAME}`,
    master,
    replica,
    sentinels,
    masterPort: masterPortNow,
    async failover() {
      const before = await masterPortNow();
      await redisCli(sentinels[0].port, 'SENTINEL', 'FAILOVER', MASTER_NAME);
      await eventually(async () => (await masterPortNow()) !== before && (await redisCli(await masterPortNow(), 'ROLE')).startsWith('master'), 20_000);
      // Done when the old master has been turned into a replica of the new one.
      await eventually(async () => (await redisCli(before, 'ROLE')).startsWith('slave'), 20_000);
      return masterPortNow();
    },
    async stop() {
      for (const server of [...sentinels, replica, master]) await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A six-node Redis Cluster: three masters, each with one replica. */
export interface RedisClusterSet {
  connString: string;
  nodes: RedisProcess[];
  /** The node serving the slot of `key` as master. */
  masterOf(key: string): Promise<RedisProcess>;
  /** Waits until every node reports the cluster healthy with three masters. */
  healthy(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedisCluster(): Promise<RedisClusterSet> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-cluster-'));
  const ports = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  const nodes = ports.map((port) => {
    const nodeDir = path.join(dir, String(port));
    mkdirSync(nodeDir);
    return redisProcess(port, ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '1500', '--save', '', '--appendonly', 'no', '--dir', nodeDir]);
  });
  await Promise.all(nodes.map((node) => node.start()));
  await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes']);
  /** `CLUSTER NODES` as seen by the first node that answers (one may be down on purpose). */
  const clusterNodes = async (): Promise<string[][]> => {
    for (const port of ports) {
      const answer = await redisCli(port, 'CLUSTER', 'NODES').catch(() => null);
      if (answer) return answer.split('\n').map((line) => line.split(' '));
    }
    throw new Error('no cluster node answers');
  };
  const isLiveMaster = (fields: string[]) => fields[2].split(',').includes('master') && !fields[2].includes('fail');
  const healthy = async () => {
    await eventually(async () => {
      for (const node of nodes) {
        const info = await redisCli(node.port, 'CLUSTER', 'INFO').catch(() => null);
        if (info !== null && !info.includes('cluster_state:ok')) return false;
      }
      return (await clusterNodes()).filter(isLiveMaster).length === 3;
    }, 30_000);
  };
  await healthy();
  return {
    connString: `redis-cluster://${ports.map((port) => `127.0.0.1:${port}`).join(',')}`,
    nodes,
    healthy,
    async masterOf(key: string) {
      const slot = Number(await redisCli(ports[0], 'CLUSTER', 'KEYSLOT', key));
      for (const fields of await clusterNodes()) {
        if (!isLiveMaster(fields)) continue;
        const serves = fields.slice(8).some((range) => {
          const [from, to = from] = range.split('-').map(Number);
          return slot >= from && slot <= to;
        });
        if (serves) return nodes.find((node) => fields[1].startsWith(`127.0.0.1:${node.port}@`))!;
      }
      throw new Error(`no master serves slot ${slot}`);
    },
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
