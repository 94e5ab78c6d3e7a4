import { keyMode, parseChannelKeyInfo } from './channel-keys';
import { ChannelHealthView, ChannelTagRow, ChannelView } from './channel.wire';
import { ChannelEntity } from './entities/channel.entity';

/** The channel's view, with the relay's health figures for it. */
export function toChannelView(channel: ChannelEntity, health: ChannelHealthView): ChannelView {
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
    multi_key_mode: keyMode(parseChannelKeyInfo(channel.channel_info)),
    ...health,
  };
}

export function toTagRow(tag: string, children: ChannelEntity[], view: (channel: ChannelEntity) => ChannelView): ChannelTagRow {
  return {
    is_tag: true,
    tag,
    children: children.map(view),
    channel_count: children.length,
    enabled_count: children.filter((channel) => channel.status === 1).length,
    priority: Math.max(...children.map((channel) => channel.priority)),
    weight: children.reduce((sum, channel) => sum + channel.weight, 0),
  };
}
