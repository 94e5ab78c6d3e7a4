import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, channelTypeRow, defaultOther, type ChannelTypeRow } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import { endpointSpec } from '../../relay-endpoints';
import type { NativeAdaptor, UpstreamTarget } from '../adaptor';
import { OpenAICompatibleAdaptor } from '../openai-compatible/openai-compatible.adaptor';
import { socketUrl } from '../socket-url';

/** The Realtime API needs a preview api-version; the channel's own `other` wins when set. */
const AZURE_REALTIME_API_VERSION = '2025-04-01-preview';

/**
 * Azure OpenAI: OpenAI's bodies, but a deployment URL, an api-version query and an api-key
 * header. The deployment is the upstream model name without dots (Azure forbids them).
 */
@Injectable()
export class AzureAdaptor extends OpenAICompatibleAdaptor implements NativeAdaptor {
  readonly channelTypes = [CHANNEL_TYPE.AZURE];

  constructor() {
    super({ ...(channelTypeRow(CHANNEL_TYPE.AZURE) as ChannelTypeRow), streamUsage: true });
  }

  override buildUrl(target: UpstreamTarget): URL | undefined {
    const base = this.baseUrl(target.channel);
    const endpoint = this.answersOnlyOnResponses(target) ? 'responses' : target.endpoint;
    const path = endpointSpec(endpoint).path;
    const url =
      endpoint === 'responses'
        ? new URL(`${base}/openai${path}`)
        : new URL(`${base}/openai/deployments/${encodeURIComponent(azureDeployment(target.upstreamModel))}${path}`);
    url.searchParams.set('api-version', apiVersion(target.channel));
    return url;
  }

  override buildHeaders(target: UpstreamTarget): Record<string, string> {
    return { 'api-key': target.key };
  }

  /** Azure's Realtime: the deployment in the query, with an api-version that offers it (a preview one unless the channel names its own). */
  override realtimeUrl(target: UpstreamTarget): URL | undefined {
    const url = socketUrl(`${this.baseUrl(target.channel)}/openai/realtime`);
    url.searchParams.set('api-version', target.channel.other.trim() || AZURE_REALTIME_API_VERSION);
    url.searchParams.set('deployment', azureDeployment(target.upstreamModel));
    return url;
  }

  /** Azure is not known to serve Responses over WebSocket: its WebSocket clients go over HTTP. */
  override responsesSocketUrl(): URL | undefined {
    return undefined;
  }

  override modelsUrl(channel: RelayChannel): URL {
    const url = new URL(`${this.baseUrl(channel)}/openai/models`);
    url.searchParams.set('api-version', apiVersion(channel));
    return url;
  }
}

function apiVersion(channel: RelayChannel): string {
  return channel.other.trim() || defaultOther(channel.type);
}

export function azureDeployment(model: string): string {
  return model.replace(/\./g, '');
}
