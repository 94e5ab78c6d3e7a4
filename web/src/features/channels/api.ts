import { api, type Page } from '../../api/client';

export const CHANNEL_ENABLED = 1;
export const CHANNEL_MANUALLY_DISABLED = 2;
export const CHANNEL_AUTO_DISABLED = 3;

/** A channel as the server shows it; `key` is always empty (keys never leave the server). */
export interface Channel {
  id: number;
  type: number;
  key: string;
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
  /** JSON text: {status_reason, status_time}. */
  other_info: string;
  tag: string;
  priority: number;
  weight: number;
  auto_ban: number;
  max_input_tokens: number;
  /** Milliseconds; 0 means never tested. */
  response_time: number;
  balance: number;
  balance_updated_time: number;
  used_quota: number;
  created_time: number;
  test_time: number;
  expired_time: number;
}

/** In tag mode, one row for all channels sharing a tag. */
export interface ChannelTagRow {
  is_tag: true;
  tag: string;
  children: Channel[];
  channel_count: number;
  enabled_count: number;
  priority: number;
  weight: number;
}

export type ChannelListRow = Channel | ChannelTagRow;

export function isTagRow(row: ChannelListRow): row is ChannelTagRow {
  return 'is_tag' in row && row.is_tag;
}

export interface ChannelQuery {
  keyword: string;
  group: string;
  model: string;
  idSort: boolean;
  tagMode: boolean;
}

/** The body of a create or full edit; list fields travel as comma strings. */
export type ChannelWrite = Omit<
  Channel,
  'id' | 'status' | 'other_info' | 'response_time' | 'balance' | 'balance_updated_time' | 'used_quota' | 'created_time' | 'test_time' | 'expired_time'
> & { id?: number; mode?: 'single' | 'batch' };

export type ChannelPatch = { id: number } & Partial<Pick<Channel, 'status' | 'priority' | 'weight'>>;

export interface TagEdit {
  tag: string;
  new_tag?: string;
  model_mapping?: string;
  groups?: string;
  models?: string;
  priority?: number;
  weight?: number;
}

export interface ChannelTestResult {
  success: boolean;
  message: string;
  time: number;
}

/** GET /api/channel/test/:id answers {success, message, time} with `time` in seconds beside the envelope. */
async function testChannel(id: number, model?: string): Promise<ChannelTestResult> {
  const result = await api.get<null>(`/api/channel/test/${id}`, { query: { model: model || undefined }, quiet: true });
  return { success: result.ok, message: result.message, time: Number(result.extras?.time ?? 0) };
}

export const channelsApi = {
  list: (query: ChannelQuery, page: number, pageSize: number) => {
    const search = query.keyword || query.group || query.model;
    return api.get<Page<ChannelListRow>>(search ? '/api/channel/search' : '/api/channel/', {
      query: {
        p: page,
        page_size: pageSize,
        keyword: query.keyword || undefined,
        group: query.group || undefined,
        model: query.model || undefined,
        id_sort: query.idSort,
        tag_mode: query.tagMode,
      },
    });
  },
  get: (id: number) => api.get<Channel>(`/api/channel/${id}`),
  create: (body: ChannelWrite) => api.post<Channel[]>('/api/channel/', body),
  update: (body: ChannelWrite & { id: number }) => api.put<Channel>('/api/channel/', body),
  patch: (body: ChannelPatch) => api.put<Channel>('/api/channel/', body),
  remove: (id: number) => api.delete<null>(`/api/channel/${id}/`),
  removeMany: (ids: number[]) => api.post<number>('/api/channel/batch', { ids }),
  removeDisabled: () => api.delete<number>('/api/channel/disabled'),
  setTag: (ids: number[], tag: string) => api.post<number>('/api/channel/batch/tag', { ids, tag }),
  editTag: (body: TagEdit) => api.put<number>('/api/channel/tag', body),
  enableTag: (tag: string) => api.post<number>('/api/channel/tag/enabled', { tag }),
  disableTag: (tag: string) => api.post<number>('/api/channel/tag/disabled', { tag }),
  test: testChannel,
  testAll: () => api.get<null>('/api/channel/test'),
  fetchModelsOf: (id: number) => api.get<string[]>(`/api/channel/fetch_models/${id}`),
  fetchModels: (body: { base_url: string; type: number; key: string }) => api.post<string[]>('/api/channel/fetch_models', body),
  groups: () => api.get<string[]>('/api/group/'),
  enabledModels: () => api.get<string[]>('/api/channel/models_enabled'),
};
