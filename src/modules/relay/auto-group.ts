import { Injectable } from '@nestjs/common';
import { OptionsService } from '../options/options.service';
import { PricingService } from '../pricing/pricing.service';
import { AUTO_GROUP, usableGroups } from '../users/usable-groups';
import { ChannelCacheService, type PriorityTier } from './caches/channel-cache.service';
import type { RelayChannel } from './caches/relay-channel';

export { AUTO_GROUP };

/** One group an `auto` request may be served in, with what that group charges. */
export interface AutoGroupCandidate {
  group: string;
  tiers: PriorityTier[];
  groupRatio: number;
  userGroupRatio: number | null;
}

/**
 * Routing for tokens in the `auto` group (new-api's auto group): the groups of AutoGroups,
 * in their order, that the user may use and where a channel serves the model. Their tiers
 * follow one another, so failover moves on to the next group once a group's channels failed;
 * the request is billed at the ratio of the group whose channel served it.
 */
@Injectable()
export class AutoGroupRouter {
  constructor(
    private readonly options: OptionsService,
    private readonly channels: ChannelCacheService,
    private readonly pricing: PricingService,
  ) {}

  /** The AutoGroups groups the user may use, in order. */
  groupsFor(userGroup: string): string[] {
    const usable = usableGroups(this.options, userGroup);
    return [...new Set(this.options.get('AutoGroups'))].filter((group) => group !== AUTO_GROUP && group in usable);
  }

  candidates(userGroup: string, model: string): AutoGroupCandidate[] {
    const candidates: AutoGroupCandidate[] = [];
    for (const group of this.groupsFor(userGroup)) {
      const tiers = this.channels.tiers(group, model);
      if (tiers.length === 0) continue;
      const { ratio, userGroupRatio } = this.pricing.groupRatio(userGroup, group);
      candidates.push({ group, tiers, groupRatio: ratio, userGroupRatio });
    }
    return candidates;
  }
}

/**
 * The candidate whose tiers hold the channel that served: the first one listing it, since a
 * channel is tried once, in the first group it appears in.
 */
export function servingCandidate(candidates: readonly AutoGroupCandidate[], channel: RelayChannel): AutoGroupCandidate | undefined {
  return candidates.find((candidate) => candidate.tiers.some((tier) => tier.members.some((member) => member.channel.id === channel.id)));
}
