import type { MessageTable } from '../message-table';

/** Messages of channels, tokens, logs, pricing and the relay. */
export const relayMessages = {
  'relay.channel_not_found': { zh: '渠道不存在', en: 'Channel not found' },
  'relay.channel_type_unsupported': { zh: '暂不支持该渠道类型', en: 'This channel type is not supported yet' },
  'relay.channel_test_ok': { zh: '测试成功', en: 'Test succeeded' },
  'relay.channel_test_failed': { zh: '测试失败：{message}', en: 'Test failed: {message}' },
  'relay.channel_test_all_started': { zh: '已开始测试所有已启用和自动禁用的渠道，请稍后刷新查看结果', en: 'Testing all enabled and automatically disabled channels; refresh later to see the results' },
  'relay.fetch_models_failed': { zh: '获取模型列表失败：{message}', en: 'Failed to get the model list: {message}' },
  'relay.fetch_models_known_list': { zh: '该服务商没有模型列表接口，以下是网关已知它提供的模型', en: 'This provider has no model-list API; these are the models the gateway knows it serves' },
  'relay.fetch_models_need_key': { zh: '请填写密钥', en: 'Please fill in the key' },
} satisfies MessageTable;
