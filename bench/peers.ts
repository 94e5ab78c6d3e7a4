import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chatBody, type Endpoint, idle, loadRun, mb, MODES, type Mode, percentile, round2, round3, type RunFigures, sequentialLatencies, stopChildren, summarize, withPeakRss } from './harness';
import type { OutboundMessage } from './portkey-preload';
import { type Child, median, request, startChild, stats } from './process-stats';

/**
 * `npm run bench:peers`: this gateway against the Portkey open-source gateway
 * (`@portkey-ai/gateway`, a devDependency), on the harness of `npm run bench`: one mock upstream,
 * one load generator (autocannon at 50 connections), every server in its own process so CPU and
 * memory are read per process, interleaved rounds (the two gateways' order alternating), and
 * ratios as the median of the per-round ratios. The mock itself (direct) and the floor (a
 * minimal pass-through) run in the same rounds, for scale. Prints per target and mode req/s,
 * CPU µs per request, peak RSS under load and the latency added at one connection (p50 and
 * p99, against calling the mock directly), then ours/Portkey; the last line is JSON.
 *
 * Portkey runs its own published start script, with a preload (portkey-preload.ts) that keeps
 * its server on loopback and refuses any outbound connection but to loopback: the run fails
 * if Portkey tried one.
 */

const DURATION_S = 4;
const ROUNDS = 4;
const SEQUENTIAL_REQUESTS = 2000;
/** How often a target's memory is read during a load run. */
const RSS_SAMPLE_MS = 200;
const EXPECTED_TEXT = 'Hello! How can I help you today?';

type Target = 'direct' | 'floor' | 'gateway' | 'portkey';
const TARGETS: readonly Target[] = ['direct', 'floor', 'gateway', 'portkey'];
/** The targets behind the mock, whose latency is measured against calling it directly. */
type Proxy = Exclude<Target, 'direct'>;
const PROXIES: readonly Proxy[] = ['floor', 'gateway', 'portkey'];

interface Served extends Endpoint {
  child: Child;
}

function start(file: string, env: Record<string, string> = {}): Promise<Child> {
  return startChild(path.join(__dirname, file), env);
}

/** Portkey's Node server as its package starts it (`bin`), on a free port, with the preload; no UI, and an environment of PATH alone. */
async function startPortkey(): Promise<{ child: Child; version: string }> {
  const packageFile = require.resolve('@portkey-ai/gateway/package.json');
  const manifest = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string; bin: string };
  const child = await startChild(path.join(path.dirname(packageFile), manifest.bin), { PATH: process.env.PATH ?? '' }, {
    args: ['--port=0', '--headless'],
    execArgv: ['--require', path.join(__dirname, 'portkey-preload.js')],
    ownEnvironment: true,
    quiet: true,
  });
  return { child, version: manifest.version };
}

/** One call of each mode through `target`: the mock's answer must come back whole, so no target is timed answering errors. */
async function checkAnswers(name: Target, target: Endpoint): Promise<void> {
  for (const mode of MODES) {
    const response = await fetch(target.url, { method: 'POST', headers: target.headers, body: chatBody(mode) });
    const text = await response.text();
    const whole = mode === 'stream' ? text.includes('[DONE]') && text.includes('Hello') : text.includes(EXPECTED_TEXT);
    if (response.status !== 200 || !whole) throw new Error(`${name} answered the ${mode} call with ${response.status}: ${text.slice(0, 300)}`);
  }
}

async function refusedConnections(portkey: Child): Promise<string[]> {
  return (await request<OutboundMessage>(portkey, 'outbound', 'outbound')).refused;
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const upstream = await start('mock-upstream-server.js');
  const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
  const floor = await start('floor-proxy.js', { UPSTREAM_URL: upstreamUrl });
  const gateway = await start('gateway-server.js', { UPSTREAM_URL: upstreamUrl });
  const { child: portkey, version: portkeyVersion } = await startPortkey();
  const children = [upstream, floor, gateway, portkey];
  const json = { 'content-type': 'application/json' };
  const targets: Record<Target, Served> = {
    direct: { child: upstream, url: `${upstreamUrl}/v1/chat/completions`, headers: json },
    floor: { child: floor, url: `http://127.0.0.1:${floor.port}/v1/chat/completions`, headers: json },
    gateway: { child: gateway, url: `http://127.0.0.1:${gateway.port}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${gateway.apiKey}` } },
    // Portkey routes by headers: the OpenAI provider, pointed at the mock; the key is passed through to it.
    portkey: {
      child: portkey,
      url: `http://127.0.0.1:${portkey.port}/v1/chat/completions`,
      headers: { ...json, authorization: 'Bearer sk-bench-upstream', 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${upstreamUrl}/v1` },
    },
  };
  try {
    console.log(`Portkey gateway ${portkeyVersion} (outbound connections other than loopback refused in its process); this gateway on SQLite`);
    for (const name of TARGETS) await checkAnswers(name, targets[name]);

    const runs: Record<Mode, Record<Target, RunFigures[]>> = { nonstream: emptyRuns(), stream: emptyRuns() };
    const peakRss: Record<Mode, Record<Target, number>> = { nonstream: zeroes(), stream: zeroes() };
    const measureRun = async (name: Target, mode: Mode, duration: number): Promise<RunFigures> => {
      const { result, peakRssBytes } = await withPeakRss(targets[name].child, () => loadRun(targets[name].child, targets[name], chatBody(mode), duration), RSS_SAMPLE_MS);
      peakRss[mode][name] = Math.max(peakRss[mode][name], peakRssBytes);
      return result;
    };
    // Warm-up: JIT, connection pools.
    for (const name of TARGETS) for (const mode of MODES) await measureRun(name, mode, 1);
    for (let round = 0; round < ROUNDS; round++) {
      const gateways: Target[] = round % 2 === 0 ? ['gateway', 'portkey'] : ['portkey', 'gateway'];
      for (const mode of MODES) {
        for (const name of ['direct', 'floor', ...gateways] as Target[]) runs[mode][name].push(await measureRun(name, mode, DURATION_S));
      }
      await idle(children);
    }

    const latency = {} as Record<Mode, Record<Target, { p50: number; p99: number }>>;
    for (const mode of MODES) {
      const samples = await sequentialLatencies(targets, chatBody(mode), SEQUENTIAL_REQUESTS);
      latency[mode] = Object.fromEntries(TARGETS.map((name) => [name, { p50: round3(median(samples[name])), p99: round3(percentile(samples[name], 0.99)) }])) as Record<Target, { p50: number; p99: number }>;
    }
    const refused = await refusedConnections(portkey);
    if (refused.length > 0) throw new Error(`Portkey tried to connect to ${[...new Set(refused)].join(', ')}: the figures are not kept`);

    const result = report(runs, peakRss, latency);
    const peakRssMB = Object.fromEntries(await Promise.all(TARGETS.map(async (name) => [name, mb((await stats(targets[name].child)).maxRssBytes)]))) as Record<Target, number>;
    const summary = { portkeyVersion, durationSeconds: DURATION_S, rounds: ROUNDS, ...result, peakRssMBSinceStart: peakRssMB, portkeyOutboundRefused: refused.length, benchSeconds: Math.round((Date.now() - startedAt) / 1000) };
    console.log(JSON.stringify(summary));
  } finally {
    await stopChildren(children);
  }
  process.exit(0);
}

/** Prints the table and the ratios, and answers every figure for the JSON line. */
function report(runs: Record<Mode, Record<Target, RunFigures[]>>, peakRss: Record<Mode, Record<Target, number>>, latency: Record<Mode, Record<Target, { p50: number; p99: number }>>) {
  const perRound = (mode: Mode, of: Target, to: Target, figure: keyof RunFigures) => round2(median(runs[mode][of].map((run, index) => run[figure] / runs[mode][to][index][figure])));
  const modes = MODES.map((mode) => {
    const rows = Object.fromEntries(TARGETS.map((name) => [name, { ...summarize(runs[mode][name]), peakRssMB: mb(peakRss[mode][name]) }])) as Record<Target, RunFigures & { peakRssMB: number }>;
    const added = Object.fromEntries(PROXIES.map((name) => [name, { p50: round3(latency[mode][name].p50 - latency[mode].direct.p50), p99: round3(latency[mode][name].p99 - latency[mode].direct.p99) }])) as Record<Proxy, { p50: number; p99: number }>;
    const oursToPortkey = {
      rps: perRound(mode, 'gateway', 'portkey', 'rps'),
      cpuMicrosPerRequest: perRound(mode, 'gateway', 'portkey', 'cpuMicrosPerRequest'),
      addedP50: round2(added.gateway.p50 / added.portkey.p50),
      peakRss: round2(rows.gateway.peakRssMB / rows.portkey.peakRssMB),
    };
    const toFloor = { gateway: perRound(mode, 'gateway', 'floor', 'rps'), portkey: perRound(mode, 'portkey', 'floor', 'rps') };
    return [mode, { targets: rows, latencyOneConnectionMs: latency[mode], addedLatencyMs: added, ratioOursToPortkey: oursToPortkey, rpsRatioToFloor: toFloor }] as const;
  });
  const byMode = Object.fromEntries(modes) as Record<Mode, (typeof modes)[number][1]>;

  console.log('');
  // At one connection the p99 is the machine's stalls as much as the target's: an added p99 below zero is that noise.
  console.log('mode       target    req/s  CPU µs/req  peak RSS MB  load p50/p99 ms  1 conn. p50/p99 ms  added p50/p99 ms  errors');
  for (const mode of MODES) {
    const { targets, latencyOneConnectionMs, addedLatencyMs } = byMode[mode];
    for (const name of TARGETS) {
      const row = targets[name];
      const oneConnection = `${latencyOneConnectionMs[name].p50.toFixed(3)} / ${latencyOneConnectionMs[name].p99.toFixed(3)}`;
      const added = name === 'direct' ? '(baseline)' : `${addedLatencyMs[name].p50.toFixed(3)} / ${addedLatencyMs[name].p99.toFixed(3)}`;
      console.log(
        `${mode.padEnd(10)} ${name.padEnd(8)} ${String(row.rps).padStart(6)} ${String(row.cpuMicrosPerRequest).padStart(11)} ${String(row.peakRssMB).padStart(12)} ${`${row.p50.toFixed(1)} / ${row.p99.toFixed(1)}`.padStart(16)} ${oneConnection.padStart(19)} ${added.padStart(17)} ${String(row.errors).padStart(7)}`,
      );
    }
  }
  for (const mode of MODES) {
    const ratio = byMode[mode].ratioOursToPortkey;
    console.log(`ours/Portkey ${mode}: req/s ×${ratio.rps}, CPU per request ×${ratio.cpuMicrosPerRequest}, added p50 latency ×${ratio.addedP50}, peak RSS ×${ratio.peakRss} (req/s and CPU: median of ${ROUNDS} interleaved rounds' ratios)`);
  }
  for (const mode of MODES) {
    const floor = byMode[mode].rpsRatioToFloor;
    console.log(`req/s against the floor, ${mode}: ours ${floor.gateway}, Portkey ${floor.portkey}`);
  }
  return byMode;
}

function emptyRuns(): Record<Target, RunFigures[]> {
  return { direct: [], floor: [], gateway: [], portkey: [] };
}

function zeroes(): Record<Target, number> {
  return { direct: 0, floor: 0, gateway: 0, portkey: 0 };
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
