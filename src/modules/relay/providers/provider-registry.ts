import { Inject, Injectable } from '@nestjs/common';
import { CHANNEL_TYPE_ROWS, type ChannelTypeRow } from '../../channels/channel-types';
import type { NativeAdaptor, ProviderAdaptor } from './adaptor';
import { NATIVE_ADAPTOR_INSTANCES } from './native';
import { OpenAICompatibleAdaptor } from './openai-compatible/openai-compatible.adaptor';

/**
 * The adaptor of each channel type, built once from the catalogue: one shared-base adaptor per
 * `openai-compatible` row, and the native adaptors (Nest providers: they read settings) for the
 * `native` rows. A catalogue row that nothing serves, or an adaptor claiming a type its row does
 * not give it, stops the start, so no type can be offered that cannot relay.
 */
@Injectable()
export class ProviderRegistry {
  private readonly adaptors = new Map<number, ProviderAdaptor>();

  constructor(@Inject(NATIVE_ADAPTOR_INSTANCES) natives: NativeAdaptor[]) {
    for (const native of natives) {
      for (const type of native.channelTypes) this.adaptors.set(type, native);
    }
    for (const row of CHANNEL_TYPE_ROWS) {
      if (row.servedBy === 'openai-compatible') this.adaptors.set(row.type, new OpenAICompatibleAdaptor(row));
    }
    for (const row of CHANNEL_TYPE_ROWS) checkServed(row, this.adaptors.get(row.type), natives);
  }

  /** The adaptor of a channel type, or undefined for the types the relay does not serve (tasks, retired, unserved). */
  forChannelType(type: number): ProviderAdaptor | undefined {
    return this.adaptors.get(type);
  }

  /** The channel types the relay serves. */
  supportedChannelTypes(): number[] {
    return [...this.adaptors.keys()];
  }
}

function checkServed(row: ChannelTypeRow, adaptor: ProviderAdaptor | undefined, natives: readonly NativeAdaptor[]): void {
  const relayed = row.servedBy === 'openai-compatible' || row.servedBy === 'native';
  if (relayed && !adaptor) throw new Error(`Channel type ${row.type} (${row.name}) is served by '${row.servedBy}' in the catalogue, but no adaptor serves it`);
  if (!relayed && adaptor) throw new Error(`Channel type ${row.type} (${row.name}) has an adaptor, but the catalogue says it is served by '${row.servedBy}'`);
  if (row.servedBy === 'native' && !natives.includes(adaptor as NativeAdaptor)) throw new Error(`Channel type ${row.type} (${row.name}) is native in the catalogue but has no native adaptor`);
}
