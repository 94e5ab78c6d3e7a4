import type { MessageTable } from '../message-table';

export const optionsMessages = {
  'option.unknown_key': { zh: '未知的配置项：{key}', en: 'Unknown option: {key}' },
  'option.root_only': { zh: '只有超级管理员可以修改配置项 {key}', en: 'Only the super administrator may change {key}' },
  'option.invalid_bool': { zh: '配置项 {key} 只能是 true 或 false', en: '{key} must be true or false' },
  'option.invalid_int': { zh: '配置项 {key} 必须是整数', en: '{key} must be an integer' },
  'option.invalid_number': { zh: '配置项 {key} 必须是数字', en: '{key} must be a number' },
  'option.too_small': { zh: '配置项 {key} 不能小于 {min}', en: '{key} must be at least {min}' },
  'option.too_large': { zh: '配置项 {key} 不能大于 {max}', en: '{key} must be at most {max}' },
  'option.invalid_json': { zh: '配置项 {key} 不是合法的 JSON 字符串', en: '{key} is not a valid JSON string' },
  'option.shape.number_map': { zh: '配置项 {key} 必须是 JSON 对象，值为 0 到 1000000 的数字', en: '{key} must be a JSON object whose values are numbers from 0 to 1000000' },
  'option.shape.int_map': { zh: '配置项 {key} 必须是 JSON 对象，值为 0 到 100000000 的整数', en: '{key} must be a JSON object whose values are integers from 0 to 100000000' },
  'option.shape.ratio_sync_sources': {
    zh: '配置项 {key} 必须是 JSON 列表，每项含 name（1 到 64 个字符，不重复）、kind（gateway 或 price_list）和 http(s) 地址 url',
    en: '{key} must be a JSON list of {name (1 to 64 characters, unique), kind (gateway or price_list), url (an http(s) address)}',
  },
  'option.shape.string_map': { zh: '配置项 {key} 必须是 JSON 对象，值为字符串', en: '{key} must be a JSON object whose values are strings' },
  'option.shape.number_map_by_group': {
    zh: '配置项 {key} 必须是 JSON 对象，每个分组对应一个值为 0 到 1000000 的数字的对象',
    en: '{key} must be a JSON object mapping each group to an object of numbers from 0 to 1000000',
  },
  'option.shape.string_list': { zh: '配置项 {key} 必须是字符串组成的 JSON 数组', en: '{key} must be a JSON array of strings' },
  'option.shape.pay_methods': {
    zh: '配置项 {key} 必须是 JSON 数组，每项包含字符串 name、type 和可选的 color',
    en: '{key} must be a JSON array of entries with string name, type and optional color',
  },
  'option.shape.chats': { zh: '配置项 {key} 必须是 JSON 数组，每项为 名称→链接 的对象', en: '{key} must be a JSON array of objects mapping a name to a link' },
  'option.shape.headers_by_model': {
    zh: '配置项 {key} 必须是 JSON 对象：模型 → { 请求头: [值, …] }',
    en: '{key} must be a JSON object: model → { header: [value, …] }',
  },
  'option.shape.rate_limit_by_group': {
    zh: '配置项 {key} 必须是 JSON 对象：分组 → [请求次数, 成功次数]，均为 0 到 100000000 的整数',
    en: '{key} must be a JSON object: group → [request count, success count], integers from 0 to 100000000',
  },
  'option.shape.model_fallbacks': {
    zh: '配置项 {key} 必须是 JSON 对象：模型 → [备用模型, …]，每个模型最多 10 个备用模型',
    en: '{key} must be a JSON object: model → [fallback model, …], at most 10 fallback models each',
  },
  'option.shape.image_prices': {
    zh: '配置项 {key} 在 {at} 处有误：格式须为 模型 → 尺寸 → 每张价格（美元，0 到 1000000），或 模型 → 尺寸 → 质量 → 每张价格；"*" 匹配未列出的尺寸或质量',
    en: '{key} is wrong at {at}: it must be model → size → USD per image (0 to 1000000), or model → size → quality → USD per image; "*" matches a size or quality not listed',
  },
  'option.shape.audio_prices': {
    zh: '配置项 {key} 在 {at} 处有误：格式须为 模型 → {"input": 每秒价格, "output": 每秒价格}（美元，0 到 1000000，至少一项）',
    en: '{key} is wrong at {at}: it must be model → {"input": USD per second, "output": USD per second} (0 to 1000000, at least one of them)',
  },
  'option.shape.video_prices': {
    zh: '配置项 {key} 在 {at} 处有误：格式须为 模型 → 分辨率 → 每秒价格（美元，0 到 1000000）；"*" 匹配未列出的分辨率',
    en: '{key} is wrong at {at}: it must be model → resolution → USD per second (0 to 1000000); "*" matches a resolution not listed',
  },
  'option.shape.task_action_prices': {
    zh: '配置项 {key} 在 {at} 处有误：格式须为 平台 → 动作 → 每次价格（美元，0 到 1000000）；平台为 midjourney（动作如 IMAGINE、UPSCALE）或 suno（MUSIC、LYRICS）',
    en: '{key} is wrong at {at}: it must be platform → action → USD per call (0 to 1000000); platforms are midjourney (actions such as IMAGINE, UPSCALE) and suno (MUSIC, LYRICS)',
  },
  'option.invalid_url': { zh: '配置项 {key} 必须以 http:// 或 https:// 开头', en: '{key} must start with http:// or https://' },
  'option.invalid_enum': { zh: '配置项 {key} 只能是 {values} 之一', en: '{key} must be one of {values}' },
  'option.too_long': { zh: '配置项 {key} 过长，最多 {max} 个字符', en: '{key} is too long: at most {max} characters' },
  'option.single_line': { zh: '配置项 {key} 只能是一行', en: '{key} must be a single line' },
  'option.invalid_value': { zh: '配置项 {key} 的值必须是字符串、数字或布尔值', en: '{key} must be a string, number or boolean' },
  'option.pricing_reset': { zh: '模型倍率已重置', en: 'Model ratios have been reset' },
} satisfies MessageTable;
