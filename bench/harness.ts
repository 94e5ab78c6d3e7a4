import autocannon from 'autocannon';
import { Agent } from 'undici';
import { type Child, median, stats } from './process-stats';

/**
 * The load-measuring parts that `npm run bench` and `npm run bench:peers` share: one load run
 * with the target's CPU per request, the summary of a target's rounds, sequential latency at
 * one connection, peak memory while work runs, and the wait for idle servers between rounds.
 */

/** Open connections of the load generator. */
export const CONNECTIONS = 50;

export type Mode = 'nonstream' | 'stream';
export const MODES: readonly Mode[] = ['nonstream', 'stream'];

/** What one load run of a target measured. */
export interface RunFigures {
  rps: number;
  p50: number;
  p99: number;
  /** The target process's user + system CPU over the run, per request answered. */
  cpuMicrosPerRequest: number;
  errors: number;
}

/** Where a target answers Chat Completions, and the headers it needs. */
export interface Endpoint {
  url: string;
  headers: Record<string, string>;
}

/** The bench's Chat Completions call to the mock upstream's model. */
export function chatBody(mode: Mode, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Hello, how are you today?' }], ...(mode === 'stream' ? { stream: true } : {}), ...extra });
}

/** Drives `target` with autocannon at CONNECTIONS for `duration` seconds, reading `child`'s CPU before and after. */
export async function loadRun(child: Child, target: Endpoint, body: string, duration: number): Promise<RunFigures> {
  const before = await stats(child);
  const result = await autocannon({ url: target.url, method: 'POST', headers: target.headers, body, connections: CONNECTIONS, duration });
  const after = await stats(child);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicrosPerRequest: (after.cpuMicros - before.cpuMicros) / Math.max(1, result.requests.total),
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** A target's rounds in one row: the median req/s, the mean latencies and CPU, the errors summed. */
export function summarize(runs: RunFigures[]): RunFigures {
  return {
    rps: Math.round(median(runs.map((run) => run.rps))),
    p50: mean(runs.map((run) => run.p50)),
    p99: mean(runs.map((run) => run.p99)),
    cpuMicrosPerRequest: Math.round(mean(runs.map((run) => run.cpuMicrosPerRequest))),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

/**
 * Latencies in ms of `requests` sequential calls per target over one connection each, in blocks
 * of 100 that interleave the targets; the first block of each warms up and is not kept.
 */
export async function sequentialLatencies<Name extends string>(targets: Record<Name, Endpoint>, body: string, requests: number): Promise<Record<Name, number[]>> {
  const names = Object.keys(targets) as Name[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  const agents = Object.fromEntries(names.map((name) => [name, new Agent({ connections: 1 })])) as Record<Name, Agent>;
  for (let block = 0; block < requests / 100; block++) {
    for (const name of names) {
      const { url, headers } = targets[name];
      const parsed = new URL(url);
      for (let i = 0; i < 100; i++) {
        const started = performance.now();
        const answer = await agents[name].request({ origin: parsed.origin, path: parsed.pathname, method: 'POST', headers, body });
        await answer.body.arrayBuffer();
        if (block > 0) samples[name].push(performance.now() - started);
      }
    }
  }
  for (const name of names) await agents[name].close();
  return samples;
}

/** Runs `work` while sampling `child`'s resident memory every `everyMs`; answers its result and the highest sample. */
export async function withPeakRss<Result>(child: Child, work: () => Promise<Result>, everyMs = 100): Promise<{ result: Result; peakRssBytes: number }> {
  let peak = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, (await stats(child)).rssBytes);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    return { result: await work(), peakRssBytes: peak };
  } finally {
    running = false;
    await sampler;
  }
}

/** The servers count as idle when together they use under 5 % of a core over 100 ms. */
const IDLE_PROBE_MS = 100;
const IDLE_CPU_SHARE = 0.05;
const IDLE_WAIT_MS = 3000;

/**
 * Waits until the servers are idle after a load round (at most IDLE_WAIT_MS): the gateway's
 * last settlement batches or a checkpoint, running beside a timing on this two-core machine,
 * would slow the timed code.
 */
export async function idle(children: Child[]): Promise<void> {
  const cpuMicros = async () => (await Promise.all(children.map((child) => stats(child)))).reduce((sum, figures) => sum + figures.cpuMicros, 0);
  const deadline = Date.now() + IDLE_WAIT_MS;
  let before = await cpuMicros();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_PROBE_MS));
    const now = await cpuMicros();
    if (now - before < IDLE_PROBE_MS * 1000 * IDLE_CPU_SHARE) return;
    before = now;
  }
}

/** Ends the children and waits until each has exited. */
export async function stopChildren(children: Child[]): Promise<void> {
  for (const child of children) child.process.kill();
  await Promise.all(children.map((child) => new Promise((resolve) => (child.process.exitCode === null && child.process.signalCode === null ? child.process.once('exit', resolve) : resolve(undefined)))));
}

/** The value below which `share` of the values lie (nearest rank); 0 for none. */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

export function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

export const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
export const round2 = (value: number) => Math.round(value * 100) / 100;
export const round3 = (value: number) => Math.round(value * 1000) / 1000;
