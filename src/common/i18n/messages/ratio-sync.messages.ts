import type { MessageTable } from '../message-table';

/** Ratio sync (/api/ratio_sync): fetching a source, reading it, applying picked prices. */
export const ratioSyncMessages = {
  'ratio_sync.unknown_source': { zh: '没有名为 {name} 的同步来源', en: 'There is no sync source named {name}' },
  'ratio_sync.unreachable': { zh: '无法连接同步来源 {host}', en: 'Could not reach the sync source {host}' },
  'ratio_sync.timeout': { zh: '同步来源 {host} 在 {seconds} 秒内没有答完', en: 'The sync source {host} did not answer within {seconds} seconds' },
  'ratio_sync.http_status': { zh: '同步来源 {host} 返回 HTTP {status}', en: 'The sync source {host} answered HTTP {status}' },
  'ratio_sync.too_large': { zh: '同步来源 {host} 的回答超过 {max} MB，已拒绝', en: 'The answer of the sync source {host} is larger than {max} MB and was refused' },
  'ratio_sync.not_json': { zh: '同步来源 {host} 的回答不是 JSON', en: 'The answer of the sync source {host} is not JSON' },
  'ratio_sync.unknown_format': {
    zh: '无法识别同步来源 {host} 的回答：应为 /api/pricing 的模型列表、/api/ratio_config 的倍率表或 /api/option/ 的配置列表',
    en: 'The answer of the sync source {host} is not understood: expected the model list of /api/pricing, the ratio maps of /api/ratio_config or the option list of /api/option/',
  },
  'ratio_sync.upstream_failed': { zh: '同步来源 {host} 回答失败：{message}', en: 'The sync source {host} answered with a failure: {message}' },
  'ratio_sync.price_list_invalid': {
    zh: '价格表不符合格式（见 README）：{path} {problem}',
    en: 'The price list does not follow the schema (see the README): {path} {problem}',
  },
  'ratio_sync.no_rows': { zh: '请至少选择一个模型', en: 'Pick at least one model' },
  'ratio_sync.invalid_pick': {
    zh: '所选行 {index} 无效：需要模型名称，以及字段 model_ratio、completion_ratio、cache_ratio、create_cache_ratio、model_price 的 0 到 1000000 的数值或 null',
    en: 'Picked row {index} is not valid: it needs a model name and, for the fields model_ratio, completion_ratio, cache_ratio, create_cache_ratio and model_price, a number from 0 to 1000000 or null',
  },
  'ratio_sync.applied': { zh: '已应用 {count} 个模型的价格', en: 'Prices of {count} models applied' },
} satisfies MessageTable;
