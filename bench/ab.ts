import autocannon from 'autocannon';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Child, median, startChild, stats } from './process-stats';
import { databaseKinds, flag, scratchDatabase } from './bench-databases';

/**
 * `npm run bench:ab -- <checkout> [<checkout> …] [--stream | --responses]`: the relay's CPU per request of
 * several builds side by side. Each checkout is a folder with this project built in it
 * (`npm run build:server`; a `git worktree` of an older commit, say). One mock upstream serves
 * them all; rounds interleave the builds, alternating their order, and the first two rounds
 * only warm up. The machine's speed drifts between bench runs (the ratio to the floor moves by
 * ±0.08), so a change of one or two µs per request shows only when builds are compared in one
 * run like this. Prints the median CPU µs per request and req/s of each build, its resident
 * memory after start and at its peak, and each build's CPU per request against the first's,
 * as the median of the rounds' ratios. Each build's gateway starts as that checkout's
 * package.json starts it (its process-tuning.ts).
 * `--responses` measures the bench's converted case instead: a Responses client streaming
 * through a Chat-only channel. `--db mysql` (or `postgres`, `sqlite`) runs each build on a
 * scratch database of its own of that kind (see bench-databases.ts), dropped at the end.
 * `--floor` also runs the floor (bench/floor-proxy.ts) in each round, and prints each build's
 * throughput against it, as the median of the rounds' ratios (the bench's ratio).
 */

const ROUNDS = 9;
const WARM_UP_ROUNDS = 2;
const DURATION_S = 4;
const CONNECTIONS = 50;

interface Build {
  folder: string;
  gateway: Child;
  /** Resident memory right after the gateway started, and its peak over the whole run (startup included). */
  idleRssBytes: number;
  cpuMicros: number[];
  /** User CPU alone; empty for a checkout whose bench predates it. */
  userMicros: number[];
  rps: number[];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const responses = args.includes('--responses');
  const stream = responses || args.includes('--stream');
  const dbFlag = flag('db');
  const [database] = dbFlag === undefined ? [] : databaseKinds(dbFlag);
  const folders = args.filter((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--db').map((folder) => path.resolve(folder));
  if (folders.length === 0) throw new Error('usage: npm run bench:ab -- <checkout> [<checkout> …] [--stream | --responses] [--db sqlite|mysql|postgres] [--floor]');
  const upstream = await startChild(path.join(__dirname, 'mock-upstream-server.js'));
  const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
  const floor = args.includes('--floor') ? await startChild(path.join(__dirname, 'floor-proxy.js'), { UPSTREAM_URL: upstreamUrl }) : undefined;
  const floorRps: number[] = [];
  const builds: Build[] = [];
  const scratch: Array<{ drop(): Promise<void> }> = [];
  for (const folder of folders) {
    const tuning = processTuning(folder);
    const env: Record<string, string> = { ...tuning.GATEWAY_ENV, UPSTREAM_URL: upstreamUrl };
    if (database && database !== 'sqlite') {
      const db = await scratchDatabase(database, '', 'gw_ab');
      scratch.push(db);
      Object.assign(env, db.env);
    }
    const gateway = await startChild(path.join(folder, 'dist', 'bench', 'gateway-server.js'), env, { execArgv: [...process.execArgv, ...tuning.GATEWAY_NODE_FLAGS] });
    builds.push({ folder, gateway, idleRssBytes: (await stats(gateway)).rssBytes, cpuMicros: [], userMicros: [], rps: [] });
  }
  const body = responses
    ? JSON.stringify({ model: 'bench-chat-only', input: 'Hello, how are you today?', stream: true })
    : JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Hello, how are you today?' }], ...(stream ? { stream: true } : {}) });
  const route = responses ? '/v1/responses' : '/v1/chat/completions';
  const load = (port: number, apiKey = '') =>
    autocannon({
      url: `http://127.0.0.1:${port}${route}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body,
      connections: CONNECTIONS,
      duration: DURATION_S,
    });
  const mode = responses ? 'responses' : stream ? 'stream' : 'non-stream';
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      if (floor) {
        const result = await load(floor.port);
        if (round >= WARM_UP_ROUNDS) floorRps.push(result.requests.average);
      }
      for (const build of order) {
        const before = await stats(build.gateway);
        const result = await load(build.gateway.port, build.gateway.apiKey);
        const after = await stats(build.gateway);
        if (result.non2xx + result.errors > 0) throw new Error(`${build.folder}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        if (round < WARM_UP_ROUNDS) continue;
        build.cpuMicros.push((after.cpuMicros - before.cpuMicros) / result.requests.total);
        if (after.userMicros !== undefined) build.userMicros.push((after.userMicros - before.userMicros) / result.requests.total);
        build.rps.push(result.requests.average);
      }
    }
    for (const build of builds) {
      const rounds = build.cpuMicros.map((value) => value.toFixed(0)).join(' ');
      const user = build.userMicros.length > 0 ? `, ${median(build.userMicros).toFixed(1)} of it user CPU` : '';
      const memory = `RSS ${mb(build.idleRssBytes)} MB after start, ${mb((await stats(build.gateway)).maxRssBytes)} MB peak`;
      console.log(`${mode} ${build.folder}: ${median(build.cpuMicros).toFixed(1)} CPU µs/req${user} (rounds: ${rounds}), ${Math.round(median(build.rps))} req/s; ${memory}`);
      if (floor) console.log(`${mode} ${build.folder} / floor (${Math.round(median(floorRps))} req/s): throughput ×${median(build.rps.map((rps, round) => rps / floorRps[round])).toFixed(2)}`);
    }
    // The machine changes speed between rounds more than builds differ: each round's pair, run back to back, is the fairer comparison.
    const [first, ...others] = builds;
    for (const build of others) {
      const ratios = build.cpuMicros.map((value, round) => value / first.cpuMicros[round]);
      console.log(`${build.folder} / ${first.folder}: CPU per request ×${median(ratios).toFixed(3)} (median of the rounds' ratios: ${ratios.map((ratio) => ratio.toFixed(2)).join(' ')})`);
      // User CPU is the builds' own code; the kernel's share of the syscalls swings with the machine and blurs a small change.
      if (build.userMicros.length > 0 && first.userMicros.length > 0) {
        console.log(`${build.folder} / ${first.folder}: user CPU per request ×${median(build.userMicros.map((value, round) => value / first.userMicros[round])).toFixed(3)}`);
      }
    }
  } finally {
    const children = [upstream, ...(floor ? [floor] : []), ...builds.map((build) => build.gateway)];
    for (const child of children) child.process.kill('SIGTERM');
    // A server database can be dropped only once its gateway has let go of it.
    await Promise.all(children.map((child) => new Promise((resolve) => (child.process.exitCode === null ? child.process.once('exit', resolve) : resolve(undefined)))));
    for (const db of scratch) await db.drop();
  }
}

/**
 * How a checkout starts its gateway (its src/config/process-tuning.ts, as its package.json does);
 * nothing for a checkout from before that file, which started plain.
 */
function processTuning(folder: string): { GATEWAY_ENV: Readonly<Record<string, string>>; GATEWAY_NODE_FLAGS: readonly string[] } {
  const file = path.join(folder, 'dist', 'src', 'config', 'process-tuning.js');
  return existsSync(file) ? (require(file) as typeof import('../src/config/process-tuning')) : { GATEWAY_ENV: {}, GATEWAY_NODE_FLAGS: [] };
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
