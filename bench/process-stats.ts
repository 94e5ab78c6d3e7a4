/** Messages between the benchmark driver and its child processes. */
export interface ReadyMessage {
  kind: 'ready';
  port: number;
  /** The API key to use, for the gateway. */
  apiKey?: string;
}

export interface StatsMessage {
  kind: 'stats';
  /** User + system CPU time in µs since the process started. */
  cpuMicros: number;
  rssBytes: number;
  /** Peak resident set size in bytes since the process started. */
  maxRssBytes: number;
}

/** Answers the driver's 'stats' requests with this process's CPU time and memory. */
export function answerStatsRequests(): void {
  process.on('message', (message: unknown) => {
    if (message !== 'stats') return;
    const cpu = process.cpuUsage();
    const reply: StatsMessage = { kind: 'stats', cpuMicros: cpu.user + cpu.system, rssBytes: process.memoryUsage.rss(), maxRssBytes: process.resourceUsage().maxRSS * 1024 };
    process.send?.(reply);
  });
}
