import { ChildProcess, fork } from 'node:child_process';

/** Messages between the benchmark driver and its child processes. */
export interface ReadyMessage {
  kind: 'ready';
  port: number;
  /** The API key to use, for the gateway. */
  apiKey?: string;
  /** A key with two budget windows and RPM and TPM limits (none of them reached): the limited case. */
  limitedApiKey?: string;
  /** A key with the response cache on: the cache-hit case. */
  cachedApiKey?: string;
}

export interface StatsMessage {
  kind: 'stats';
  /** User + system CPU time in µs since the process started. */
  cpuMicros: number;
  /** The user part: the process's own code, without the kernel's work for its system calls (which swings most with the machine's state). */
  userMicros: number;
  rssBytes: number;
  /** Peak resident set size in bytes since the process started. */
  maxRssBytes: number;
}

/** Answers the driver's 'stats' requests with this process's CPU time and memory. */
export function answerStatsRequests(): void {
  process.on('message', (message: unknown) => {
    if (message !== 'stats') return;
    const cpu = process.cpuUsage();
    const reply: StatsMessage = { kind: 'stats', cpuMicros: cpu.user + cpu.system, userMicros: cpu.user, rssBytes: process.memoryUsage.rss(), maxRssBytes: process.resourceUsage().maxRSS * 1024 };
    process.send?.(reply);
  });
}

/** A child process of the driver, ready: its port, and the gateway's API key. */
export interface Child {
  process: ChildProcess;
  port: number;
  apiKey?: string;
  limitedApiKey?: string;
  cachedApiKey?: string;
}

/** Forks `script` (with `nodeFlags` after this process's own) and resolves once it reports that it listens. */
export function startChild(script: string, env: Readonly<Record<string, string>> = {}, nodeFlags: readonly string[] = []): Promise<Child> {
  const child = fork(script, [], { env: { ...process.env, ...env }, execArgv: [...process.execArgv, ...nodeFlags], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    const onMessage = (message: ReadyMessage) => {
      if (message.kind !== 'ready') return;
      child.off('message', onMessage);
      resolve({ process: child, port: message.port, apiKey: message.apiKey, limitedApiKey: message.limitedApiKey, cachedApiKey: message.cachedApiKey });
    };
    child.on('message', onMessage);
  });
}

/** The child's CPU time and memory now. */
export function stats(child: Child): Promise<StatsMessage> {
  return request<StatsMessage>(child, 'stats', 'stats');
}

/** Sends `ask` to the child and resolves with its next message of `kind`. */
export function request<Reply extends { kind: string }>(child: Child, ask: string, kind: Reply['kind']): Promise<Reply> {
  return new Promise((resolve) => {
    const onMessage = (message: Reply) => {
      if (message.kind !== kind) return;
      child.process.off('message', onMessage);
      resolve(message);
    };
    child.process.on('message', onMessage);
    child.process.send(ask);
  });
}

/** The middle value (the upper one of an even count; 0 for none): one slow round does not decide it. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
