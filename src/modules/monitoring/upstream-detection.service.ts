import { Injectable } from '@nestjs/common';
import { nowSeconds } from '../../database/columns';
import { ChannelsService } from '../channels/channels.service';
import { LogsService } from '../logs/logs.service';
import type { UpstreamClientType, UpstreamGroup } from './monitoring.wire';

/** How far back the detection looks, and how many of the newest requests it reads at most. */
const DETECTION_WINDOW_SECONDS = 30 * 86_400;
const DETECTION_ROW_LIMIT = 20_000;

/** The kind of client a relay path belongs to: the API it speaks, as the consume log's request_path records it. */
const CLIENT_TYPE_BY_PATH: Record<string, string> = {
  '/chat/completions': 'openai',
  '/completions': 'openai',
  '/responses': 'openai_responses',
  '/messages': 'claude',
  '/models:generateContent': 'gemini',
  '/embeddings': 'embeddings',
  '/images/generations': 'images',
  '/images/edits': 'images',
  '/audio/speech': 'audio',
  '/audio/transcriptions': 'audio',
  '/audio/translations': 'audio',
  '/moderations': 'moderations',
  '/rerank': 'rerank',
};

export function clientTypeOf(requestPath: string): string {
  if (requestPath.startsWith('/mj/')) return 'midjourney';
  if (requestPath.startsWith('/suno/')) return 'suno';
  return CLIENT_TYPE_BY_PATH[requestPath] ?? 'unknown';
}

/**
 * Upstream detection: which of our groups send requests to a channel's upstream, and through
 * which client APIs, with counts and when each was first and last seen. Read from the channel's
 * consume log of the last 30 days (its newest 20,000 requests at most), so the admin sees what
 * the upstream actually serves before changing its groups or models. Groups the channel is
 * configured for but that sent nothing are listed too, never seen (0).
 */
@Injectable()
export class UpstreamDetectionService {
  constructor(
    private readonly channels: ChannelsService,
    private readonly logs: LogsService,
  ) {}

  async detect(channelId: number): Promise<UpstreamGroup[]> {
    const channel = await this.channels.get(channelId);
    const traffic = await this.logs.recentChannelTraffic(channelId, nowSeconds() - DETECTION_WINDOW_SECONDS, DETECTION_ROW_LIMIT);
    const groups = new Map<string, Map<string, UpstreamClientType>>();
    for (const name of channel.group.split(',').map((group) => group.trim()).filter(Boolean)) groups.set(name, new Map());
    for (const entry of traffic) {
      let clientTypes = groups.get(entry.group);
      if (!clientTypes) groups.set(entry.group, (clientTypes = new Map()));
      const clientType = clientTypeOf(entry.requestPath);
      const seen = clientTypes.get(clientType);
      if (!seen) clientTypes.set(clientType, { client_type: clientType, count: 1, first_seen: entry.createdAt, last_seen: entry.createdAt });
      else {
        seen.count++;
        seen.first_seen = Math.min(seen.first_seen, entry.createdAt);
        seen.last_seen = Math.max(seen.last_seen, entry.createdAt);
      }
    }
    return [...groups].map(([group, clientTypes]) => toGroup(group, [...clientTypes.values()])).sort(byLastSeenThenName);
  }
}

function toGroup(group: string, clientTypes: UpstreamClientType[]): UpstreamGroup {
  const seen = clientTypes.length > 0;
  return {
    group,
    first_seen: seen ? Math.min(...clientTypes.map((type) => type.first_seen)) : 0,
    last_seen: seen ? Math.max(...clientTypes.map((type) => type.last_seen)) : 0,
    client_types: clientTypes.sort((a, b) => b.count - a.count || a.client_type.localeCompare(b.client_type)),
  };
}

function byLastSeenThenName(a: UpstreamGroup, b: UpstreamGroup): number {
  return b.last_seen - a.last_seen || a.group.localeCompare(b.group);
}
