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
  'option.invalid_json_shape': { zh: '配置项 {key} 的 JSON 结构不正确', en: '{key} does not have the expected JSON structure' },
  'option.invalid_url': { zh: '配置项 {key} 必须以 http:// 或 https:// 开头', en: '{key} must start with http:// or https://' },
  'option.invalid_enum': { zh: '配置项 {key} 只能是 {values} 之一', en: '{key} must be one of {values}' },
  'option.too_long': { zh: '配置项 {key} 过长', en: '{key} is too long' },
  'option.invalid_value': { zh: '配置项的值必须是字符串、数字或布尔值', en: 'An option value must be a string, number or boolean' },
  'option.pricing_reset': { zh: '模型倍率已重置', en: 'Model ratios have been reset' },
} satisfies MessageTable;
