import { ChannelEntity } from './entities/channel.entity';

/** A channel as every answer shows it. `key` is always empty: keys never leave the server. */
export interface ChannelView {
  id: number;
  type: number;
  key: '';
  name: string;
  status: number;
  openai_organization: string;
  test_model: string;
  base_url: string;
  other: string;
  models: string;
  group: string;
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  param_override: string;
  other_info: string;
  tag: string;
  priority: number;
  weight: number;
  auto_ban: number;
  max_input_tokens: number;
  response_time: number;
  balance: number;
  balance_updated_time: number;
  used_quota: number;
  created_time: number;
  test_time: number;
  expired_time: number;
}

/**
 * In tag mode one row stands for all channels sharing a tag; untagged channels are rows of
 * their own (plain ChannelView, without `is_tag`).
 */
export interface ChannelTagRow {
  is_tag: true;
  tag: string;
  /** Channels with this tag (those matching the search, in search), in list order. */
  children: ChannelView[];
  channel_count: number;
  enabled_count: number;
  /** The highest priority and the sum of weights of the children, for display. */
  priority: number;
  weight: number;
}

export type ChannelListRow = ChannelView | ChannelTagRow;

export function toChannelView(channel: ChannelEntity): ChannelView {
  return {
    id: channel.id,
    type: channel.type,
    key: '',
    name: channel.name,
    status: channel.status,
    openai_organization: channel.openai_organization,
    test_model: channel.test_model,
    base_url: channel.base_url,
    other: channel.other ?? '',
    models: channel.models,
    group: channel.group,
    model_mapping: channel.model_mapping ?? '',
    status_code_mapping: channel.status_code_mapping ?? '',
    setting: channel.setting ?? '',
    param_override: channel.param_override ?? '',
    other_info: channel.other_info ?? '',
    tag: channel.tag ?? '',
    priority: channel.priority,
    weight: channel.weight,
    auto_ban: channel.auto_ban,
    max_input_tokens: channel.max_input_tokens,
    response_time: channel.response_time,
    balance: channel.balance,
    balance_updated_time: channel.balance_updated_time,
    used_quota: channel.used_quota,
    created_time: channel.created_time,
    test_time: channel.test_time,
    expired_time: channel.expired_time,
  };
}

export function toTagRow(tag: string, children: ChannelEntity[]): ChannelTagRow {
  return {
    is_tag: true,
    tag,
    children: children.map(toChannelView),
    channel_count: children.length,
    enabled_count: children.filter((channel) => channel.status === 1).length,
    priority: Math.max(...children.map((channel) => channel.priority)),
    weight: children.reduce((sum, channel) => sum + channel.weight, 0),
  };
}
