import { parsePageQuery } from '../../../common/http/pagination';
import type { ChannelListQuery } from '../channels.service';

const isOn = (value: unknown) => value === 'true' || value === '1';
const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 255) : '');

/** The list's filters besides the page, for the OpenAPI document. */
export const CHANNEL_LIST_FILTERS = ['keyword', 'group', 'model', 'id_sort', 'tag_mode'];

/** ?p&page_size&id_sort&tag_mode, plus keyword, group and model on search. */
export function parseChannelListQuery(query: Record<string, unknown>): ChannelListQuery {
  return {
    page: parsePageQuery(query),
    filter: { keyword: text(query.keyword), group: text(query.group), model: text(query.model) },
    idSort: isOn(query.id_sort),
    tagMode: isOn(query.tag_mode),
  };
}
