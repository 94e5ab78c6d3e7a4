import { ChannelHealth, combineFigures } from './channel-health';

const COOLDOWN_MS = 30_000;

describe('ChannelHealth', () => {
  it('scales by latency against the fastest (with the jitter allowance) and by the success rate', () => {
    const fast = new ChannelHealth(0);
    const slow = new ChannelHealth(0);
    fast.attemptEnded('ok', 200, 0, 5);
    slow.attemptEnded('ok', 410, 0, 5);
    expect(fast.factor(200)).toBe(1);
    expect(slow.factor(200)).toBeCloseTo(0.5, 5);
    for (let i = 0; i < 10; i++) fast.attemptEnded(i < 2 ? 'fault' : 'ok', 200, 0, 5);
    expect(fast.factor(200)).toBeGreaterThan(0.8);
    expect(fast.factor(200)).toBeLessThan(1);
  });

  it('ignores neutral outcomes and never scales below 5 %', () => {
    const health = new ChannelHealth(0);
    health.attemptEnded('neutral', 0, 0, 0);
    expect(health.localFigures().samples).toBe(0);
    for (let i = 0; i < 100; i++) health.attemptEnded('fault', 0, 0, 0);
    expect(health.factor(0)).toBeCloseTo(0.05, 5);
    expect(health.state).toBe('closed');
  });

  it('opens after the consecutive faults, lets one probe through after the cool-down, and closes on its success', () => {
    const health = new ChannelHealth(0);
    for (let i = 0; i < 3; i++) health.attemptEnded('fault', 0, 1_000, 3);
    expect(health.state).toBe('open');
    expect(health.available(1_000 + COOLDOWN_MS - 1, COOLDOWN_MS)).toBe(false);
    expect(health.probeDue(1_000 + COOLDOWN_MS, COOLDOWN_MS)).toBe(true);
    health.attemptStarted();
    expect(health.state).toBe('half_open');
    expect(health.available(1_000 + COOLDOWN_MS, COOLDOWN_MS)).toBe(false);
    // A probe that ends neither way (the client left) leaves the next call to probe.
    health.attemptEnded('neutral', 0, 1_000 + COOLDOWN_MS, 3);
    expect(health.probeDue(1_000 + COOLDOWN_MS, COOLDOWN_MS)).toBe(true);
    health.attemptStarted();
    health.attemptEnded('fault', 0, 50_000, 3);
    expect(health).toMatchObject({ state: 'open', openedAtMs: 50_000 });
    health.attemptStarted();
    health.attemptEnded('ok', 100, 90_000, 3);
    expect(health).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it("blends the peers' figures by their samples", () => {
    const health = new ChannelHealth(0);
    health.attemptEnded('ok', 100, 0, 5);
    health.setPeers({ latencyMs: 300, errorRate: 0.5, samples: 3 });
    expect(health.latencyMs).toBe(250);
    expect(health.errorRate).toBeCloseTo(0.375, 5);
    expect(combineFigures({ latencyMs: 0, errorRate: 1, samples: 2 }, { latencyMs: 80, errorRate: 0, samples: 2 })).toEqual({ latencyMs: 80, errorRate: 0.5, samples: 4 });
  });
});
