import { nowSeconds } from '../../database/columns';
import type { ChannelEntity } from './entities/channel.entity';

/**
 * The columns an automatic status move writes: the status, and in other_info why and when (the
 * console shows them beside the status). Shared by ChannelsService.setStatus and the multi-key
 * writer, whose channel follows its keys inside its own conditional write.
 */
export function statusColumns(status: number, reason: string): Pick<ChannelEntity, 'status' | 'other_info'> {
  return { status, other_info: JSON.stringify({ status_reason: reason, status_time: nowSeconds() }) };
}
