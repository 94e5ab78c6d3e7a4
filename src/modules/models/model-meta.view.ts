import { MODALITIES, MODEL_TAGS, parseList } from './model-meta.catalogue';
import type { ModelMetaView, PublicModelMeta } from './model-meta.wire';
import { ModelMetaEntity } from './entities/model-meta.entity';

export function toPublicModelMeta(row: ModelMetaEntity): PublicModelMeta {
  return {
    description: row.description,
    vendor_id: row.vendor_id,
    tags: parseList(row.tags, MODEL_TAGS),
    context_length: row.context_length,
    max_output: row.max_output,
    input_modalities: parseList(row.input_modalities, MODALITIES),
    output_modalities: parseList(row.output_modalities, MODALITIES),
    icon: row.icon,
  };
}

export function toModelMetaView(row: ModelMetaEntity): ModelMetaView {
  return { id: row.id, model_name: row.model_name, ...toPublicModelMeta(row), created_time: row.created_time, updated_time: row.updated_time };
}

/** A served model nobody described yet. */
export const EMPTY_PUBLIC_MODEL_META: Readonly<PublicModelMeta> = Object.freeze({
  description: '',
  vendor_id: 0,
  tags: [],
  context_length: 0,
  max_output: 0,
  input_modalities: [],
  output_modalities: [],
  icon: '',
});
