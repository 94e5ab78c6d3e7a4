import type { MessageTable } from '../message-table';

/** Model and vendor metadata (/api/models/*). */
export const modelsMessages = {
  'model_meta.invalid_name': { zh: '模型名称长度必须在 1 到 255 之间', en: 'The model name must be 1 to 255 characters long' },
  'model_meta.duplicate_name': { zh: '模型 {name} 的元数据已存在', en: 'Metadata for model {name} already exists' },
  'model_meta.not_found': { zh: '模型元数据不存在', en: 'Model metadata not found' },
  'model_meta.invalid_description': { zh: '描述最多 1000 个字符', en: 'The description may be at most 1000 characters long' },
  'model_meta.invalid_vendor': { zh: '供应商编号无效', en: 'Invalid vendor id' },
  'model_meta.invalid_tag': {
    zh: '标签只能是 chat、vision、tools、reasoning、embedding、image、audio、video',
    en: 'Tags must be chat, vision, tools, reasoning, embedding, image, audio or video',
  },
  'model_meta.invalid_token_count': { zh: '上下文长度和最大输出必须是 0 到 10000000 之间的整数', en: 'Context length and max output must be integers from 0 to 10000000' },
  'model_meta.invalid_modality': { zh: '模态只能是 text、image、audio、video、file、embedding', en: 'Modalities must be text, image, audio, video, file or embedding' },
  'model_meta.invalid_icon': { zh: '图标必须为空、内置图标名或 https 地址', en: 'The icon must be empty, a built-in icon key or an https URL' },
  'vendor.invalid_name': { zh: '供应商名称长度必须在 1 到 64 之间', en: 'The vendor name must be 1 to 64 characters long' },
  'vendor.duplicate_name': { zh: '供应商 {name} 已存在', en: 'Vendor {name} already exists' },
  'vendor.not_found': { zh: '供应商不存在', en: 'Vendor not found' },
} satisfies MessageTable;
