import { AppError } from '../../common/errors/app-error';
import { MODEL_TAGS } from './model-meta.catalogue';
import type { ModelMetaFilter } from './model-meta.service';
import type { ModelTag } from './model-meta.wire';

/** ?keyword&vendor_id&tag of the list: an unknown tag or a malformed vendor id is refused, not ignored. */
export function parseModelMetaFilter(query: Record<string, string | undefined>): ModelMetaFilter {
  const filter: ModelMetaFilter = { keyword: String(query.keyword ?? '').slice(0, 255) };
  const vendor = query.vendor_id;
  if (vendor !== undefined && vendor !== '') {
    if (!/^\d{1,10}$/.test(vendor) || Number(vendor) > 2_147_483_647) throw new AppError('model_meta.invalid_vendor');
    filter.vendorId = Number(vendor);
  }
  const tag = query.tag;
  if (tag !== undefined && tag !== '') {
    if (!(MODEL_TAGS as readonly string[]).includes(tag)) throw new AppError('model_meta.invalid_tag');
    filter.tag = tag as ModelTag;
  }
  return filter;
}
