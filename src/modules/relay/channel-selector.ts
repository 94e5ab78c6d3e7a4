import type { PriorityTier } from './caches/channel-cache.service';
import { CHANNEL_STATUS_ENABLED } from '../channels/entities/channel.entity';
import type { RelayChannel } from './caches/relay-channel';

/**
 * Picks the channel for the next attempt: the highest priority tier that still has an enabled
 * channel this request has not tried, then a weighted random draw inside that tier (uniform
 * when every weight there is 0). Tiers are tried from the top, so failover moves down them.
 */
export function pickChannel(tiers: readonly PriorityTier[], tried: ReadonlySet<number>, random: () => number = Math.random): RelayChannel | undefined {
  for (const tier of tiers) {
    const candidates = tier.members.filter((member) => member.channel.status === CHANNEL_STATUS_ENABLED && !tried.has(member.channel.id));
    if (candidates.length === 0) continue;
    const total = candidates.reduce((sum, member) => sum + member.weight, 0);
    if (total <= 0) return candidates[Math.floor(random() * candidates.length)].channel;
    let point = random() * total;
    for (const member of candidates) {
      point -= member.weight;
      if (point < 0) return member.channel;
    }
    return candidates[candidates.length - 1].channel;
  }
  return undefined;
}
