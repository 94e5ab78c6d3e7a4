import { defaultBaseUrl } from '../../channels/channel-types';
import type { RelayChannel } from '../caches/relay-channel';
import type { WireFormat } from '../wire/wire-format';
import type { AnswerReading, UpstreamTarget } from './adaptor';
import { ConvertedBearerAdaptor } from './converted-bearer';

/**
 * What the app platforms' adaptors share (Dify's apps, Coze's bots): one chat endpoint at a
 * path under the base URL, the key as a bearer token, and a format no client speaks, so every
 * body converts and every answer translates. The app decides the model; the request's model
 * name only routes (Coze's names the bot).
 */
export abstract class AppChatAdaptor extends ConvertedBearerAdaptor {
  abstract readonly format: WireFormat;
  /** The chat endpoint's path under the base URL (which may end in a pasted API version). */
  protected abstract readonly chatPath: string;

  abstract parseResponse(body: unknown): AnswerReading;

  buildUrl(target: UpstreamTarget): URL | undefined {
    return target.endpoint === 'chat' ? new URL(`${appBaseUrl(target.channel)}${this.chatPath}`) : undefined;
  }

  override parseStreamEvent(data: string): AnswerReading | undefined {
    try {
      return this.parseResponse(JSON.parse(data));
    } catch {
      return undefined;
    }
  }
}

/** The channel's base URL without the API version a pasted URL ends with (`/v1`, `/v3`): the chat path adds it. */
function appBaseUrl(channel: RelayChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '').replace(/\/v\d+$/, '');
}
