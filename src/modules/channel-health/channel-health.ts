/** Where a channel's circuit breaker stands: closed (serving), open (resting), half-open (one probe call may go through). */
export type BreakerState = 'closed' | 'open' | 'half_open';

/** How an attempt ended, for the health figures: a channel fault counts against it; `neutral` (the client's own error, a client gone) counts neither way. */
export type AttemptOutcome = 'ok' | 'fault' | 'neutral';

/** Latency moves fast enough to notice a slowdown within a few dozen calls of the channel. */
const LATENCY_ALPHA = 0.2;
/** One failed call in ten moves the error rate by a tenth of the way. */
const ERROR_ALPHA = 0.1;
/** Samples a view counts for at most, so a long-running instance does not drown a fresh peer's figures for ever. */
export const MAX_SAMPLE_WEIGHT = 100;
/** Latency differences of about this size (ms) are noise (a garbage collection, a busy core), not a slower channel. */
const LATENCY_JITTER_MS = 10;
/** No factor drops below this: a channel that is merely slow or flaky keeps a trickle of calls, which is how it is seen to recover. */
const MIN_FACTOR = 0.05;

/** The figures another instance shares for a channel. */
export interface PeerFigures {
  latencyMs: number;
  errorRate: number;
  samples: number;
}

/**
 * One channel's health as this instance sees it: EWMA latency of successful calls and EWMA
 * error rate, both O(1) to update, blended with what the peers share; and its circuit breaker.
 */
export class ChannelHealth {
  /** EWMA latency (ms) of this instance's successful calls; 0 before the first. */
  private localLatencyMs = 0;
  private localErrorRate = 0;
  private localSamples = 0;
  private peers: PeerFigures = { latencyMs: 0, errorRate: 0, samples: 0 };
  /** Local and peer figures blended, kept ready for the draw. */
  latencyMs = 0;
  errorRate = 0;
  consecutiveFailures = 0;
  state: BreakerState = 'closed';
  openedAtMs = 0;
  private probing = false;

  /** The channel's priority when it last served, to compare it with its tier's fastest in the channel list. */
  constructor(public priority: number) {}

  /** Whether the draw may give it a call: closed, or resting long enough for a probe that is not yet under way. */
  available(nowMs: number, cooldownMs: number): boolean {
    if (this.state === 'closed') return true;
    if (this.probing) return false;
    return this.state === 'half_open' || nowMs - this.openedAtMs >= cooldownMs;
  }

  /** Whether its next call would be the breaker's probe. */
  probeDue(nowMs: number, cooldownMs: number): boolean {
    return this.state !== 'closed' && this.available(nowMs, cooldownMs);
  }

  /** A call starts on the channel: a resting breaker lets this one through as its probe. */
  attemptStarted(): void {
    if (this.state === 'closed') return;
    this.state = 'half_open';
    this.probing = true;
  }

  /** Records the call's end; `failureLimit` consecutive faults (0: never) open the breaker, and a probe's fault opens it again. */
  attemptEnded(outcome: AttemptOutcome, latencyMs: number, nowMs: number, failureLimit: number): void {
    const probe = this.probing;
    this.probing = false;
    if (outcome === 'neutral') return;
    this.localSamples = Math.min(MAX_SAMPLE_WEIGHT, this.localSamples + 1);
    if (outcome === 'ok') {
      this.localLatencyMs = this.localLatencyMs === 0 ? latencyMs : this.localLatencyMs + LATENCY_ALPHA * (latencyMs - this.localLatencyMs);
      this.localErrorRate -= ERROR_ALPHA * this.localErrorRate;
      this.consecutiveFailures = 0;
      this.state = 'closed';
    } else {
      this.localErrorRate += ERROR_ALPHA * (1 - this.localErrorRate);
      this.consecutiveFailures++;
      if (probe || (failureLimit > 0 && this.consecutiveFailures >= failureLimit && this.state === 'closed')) {
        this.state = 'open';
        this.openedAtMs = nowMs;
      }
    }
    this.blend();
  }

  /** The figures this instance measured, to share. */
  localFigures(): PeerFigures {
    return { latencyMs: this.localLatencyMs, errorRate: this.localErrorRate, samples: this.localSamples };
  }

  /** Takes in the peers' figures (already combined), or none. */
  setPeers(peers: PeerFigures): void {
    this.peers = peers;
    this.blend();
  }

  /**
   * Scales a static weight: by the success rate, and by how much slower it is than `fastestMs`
   * (the tier's fastest). Both latencies are counted LATENCY_JITTER_MS longer, so a few ms of
   * jitter between fast upstreams do not move traffic, while 200 ms against 400 ms still halves it (nearly).
   */
  factor(fastestMs: number): number {
    const speed = this.latencyMs > 0 && fastestMs > 0 ? Math.min(1, (fastestMs + LATENCY_JITTER_MS) / (this.latencyMs + LATENCY_JITTER_MS)) : 1;
    return Math.max(MIN_FACTOR, speed) * Math.max(MIN_FACTOR, 1 - this.errorRate);
  }

  private blend(): void {
    const blended = combineFigures(this.localFigures(), this.peers);
    this.latencyMs = blended.latencyMs;
    this.errorRate = blended.errorRate;
  }
}

/** Two views' figures as one, each counted by its samples (latency only from views that measured one: a view with only failures has none). */
export function combineFigures(a: PeerFigures, b: PeerFigures): PeerFigures {
  const samples = a.samples + b.samples;
  const aLatency = a.latencyMs > 0 ? a.samples : 0;
  const bLatency = b.latencyMs > 0 ? b.samples : 0;
  return {
    latencyMs: aLatency + bLatency > 0 ? (a.latencyMs * aLatency + b.latencyMs * bLatency) / (aLatency + bLatency) : 0,
    errorRate: samples > 0 ? (a.errorRate * a.samples + b.errorRate * b.samples) / samples : 0,
    samples,
  };
}
