import type { PriorityTier } from './caches/channel-cache.service';
import { CHANNEL_STATUS_ENABLED } from '../channels/entities/channel.entity';
import type { ChannelHealthService } from '../channel-health/channel-health.service';
import type { RelayChannel } from './caches/relay-channel';

type TierMember = PriorityTier['members'][number];

/** What else steers the choice: the channels' health, and the channel the request's session is bound to. */
export interface ChannelChoice {
  /** Without it (tasks, token counting) the draw uses the static weights alone. */
  health?: ChannelHealthService;
  /** The channel of the request's affinity: chosen while it is in the tier and its breaker is closed. */
  preferred?: number;
  random?: () => number;
}

/**
 * Picks the channel for the next attempt: the highest priority tier that still has an enabled
 * channel this request has not tried (and, with health, whose breaker lets calls through), then
 * in that tier the preferred (affine) channel if it is healthy, else a breaker's due probe, else
 * a weighted random draw (uniform when every weight there is 0), the weights scaled by health.
 * Tiers are tried from the top, so failover moves down them. When breakers rest every channel
 * left, the draw runs again without them: a breaker moves traffic, it never turns a call that
 * some channel might answer into a 503.
 */
export function pickChannel(tiers: readonly PriorityTier[], tried: ReadonlySet<number>, choice: ChannelChoice = {}): RelayChannel | undefined {
  const { health, preferred, random = Math.random } = choice;
  const nowMs = health ? health.nowMs() : 0;
  const cooldownMs = health ? health.cooldownMs : 0;
  let rested = false;
  for (const tier of tiers) {
    const candidates = tier.members.filter((member) => {
      if (member.channel.status !== CHANNEL_STATUS_ENABLED || tried.has(member.channel.id)) return false;
      const available = health?.peek(member.channel.id)?.available(nowMs, cooldownMs) ?? true;
      if (!available) rested = true;
      return available;
    });
    if (candidates.length === 0) continue;
    if (health) {
      const chosen = preferredOrProbe(candidates, health, preferred, nowMs, cooldownMs);
      if (chosen) return chosen;
    }
    return draw(candidates, health?.balancing ? health : undefined, random);
  }
  return rested ? pickChannel(tiers, tried, { random }) : undefined;
}

function preferredOrProbe(candidates: TierMember[], health: ChannelHealthService, preferred: number | undefined, nowMs: number, cooldownMs: number): RelayChannel | undefined {
  if (preferred !== undefined) {
    const target = candidates.find((member) => member.channel.id === preferred);
    if (target && (health.peek(preferred)?.state ?? 'closed') === 'closed') return target.channel;
  }
  // A breaker whose cool-down is over gets the next call of its tier as its one probe.
  return candidates.find((member) => health.peek(member.channel.id)?.probeDue(nowMs, cooldownMs))?.channel;
}

/** A weighted draw; with health each weight is scaled by the channel's factor against the tier's fastest. */
function draw(candidates: TierMember[], health: ChannelHealthService | undefined, random: () => number): RelayChannel {
  const staticTotal = candidates.reduce((sum, member) => sum + member.weight, 0);
  if (!health) {
    if (staticTotal <= 0) return candidates[Math.floor(random() * candidates.length)].channel;
    return landing(candidates, (member) => member.weight, staticTotal, random() * staticTotal);
  }
  let fastestMs = 0;
  for (const member of candidates) {
    const latencyMs = health.peek(member.channel.id)?.latencyMs ?? 0;
    if (latencyMs > 0 && (fastestMs === 0 || latencyMs < fastestMs)) fastestMs = latencyMs;
  }
  // All weights 0 means equal shares, which health then scales.
  const weightOf = (member: TierMember) => (staticTotal > 0 ? member.weight : 1) * (health.peek(member.channel.id)?.factor(fastestMs) ?? 1);
  let total = 0;
  for (const member of candidates) total += weightOf(member);
  return landing(candidates, weightOf, total, random() * total);
}

function landing(candidates: TierMember[], weightOf: (member: TierMember) => number, total: number, point: number): RelayChannel {
  for (const member of candidates) {
    point -= weightOf(member);
    if (point < 0) return member.channel;
  }
  return candidates[candidates.length - 1].channel;
}
