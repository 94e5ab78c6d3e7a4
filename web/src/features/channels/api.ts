import type { ChannelHealthView, ChannelKeyList, ChannelKeyMode, ChannelKeyRow, ChannelListRow, ChannelTagRow, ChannelView as Channel } from '@shared/channels/channel.wire';
import type { BalanceResult as ChannelBalance, UpstreamGroup } from '@shared/monitoring/monitoring.wire';
import { api, type Page, type RequestOptions } from '../../api/client';

// Declared once, beside the server code that builds the answer.
export type { Channel, ChannelKeyList, ChannelKeyMode, ChannelKeyRow, ChannelListRow, ChannelTagRow, UpstreamGroup };

export const CHANNEL_ENABLED = 1;
export const CHANNEL_MANUALLY_DISABLED = 2;
export const CHANNEL_AUTO_DISABLED = 3;

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

/** The body of a create or full edit; list fields travel as comma strings, and `key` is sent though never shown. */
export type ChannelWrite = Omit<
  Channel,
  'id' | 'key' | 'status' | 'other_info' | 'response_time' | 'balance' | 'balance_updated_time' | 'used_quota' | 'created_time' | 'test_time' | 'expired_time' | keyof ChannelHealthView
> & { id?: number; key: string; mode?: 'single' | 'batch' };

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

/** One key of a multi-key channel, answered as the channel test is; a pass brings an auto-disabled key back. */
async function testChannelKey(id: number, index: number): Promise<ChannelTestResult> {
  const result = await api.post<null>(`/api/channel/${id}/keys/${index}/test`, undefined, { quiet: true });
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
  create: (body: ChannelWrite, options?: RequestOptions) => api.post<Channel[]>('/api/channel/', body, options),
  update: (body: ChannelWrite & { id: number }, options?: RequestOptions) => api.put<Channel>('/api/channel/', body, options),
  /** Rebuilds every channel's abilities from its models and groups; answers how many channels were fixed. */
  /** A new channel with this one's settings and key, named with `suffix`; quiet, the list shows "copy failed". */
  copy: (id: number, suffix: string) => api.post<Channel>(`/api/channel/copy/${id}`, undefined, { query: { suffix }, quiet: true }),
  fixAbilities: () => api.post<number>('/api/channel/fix'),
  patch: (body: ChannelPatch) => api.put<Channel>('/api/channel/', body),
  remove: (id: number) => api.delete<null>(`/api/channel/${id}/`),
  removeMany: (ids: number[]) => api.post<number>('/api/channel/batch', { ids }),
  removeDisabled: () => api.delete<number>('/api/channel/disabled'),
  setTag: (ids: number[], tag: string) => api.post<number>('/api/channel/batch/tag', { ids, tag }),
  editTag: (body: TagEdit) => api.put<number>('/api/channel/tag', body),
  enableTag: (tag: string) => api.post<number>('/api/channel/tag/enabled', { tag }),
  disableTag: (tag: string) => api.post<number>('/api/channel/tag/disabled', { tag }),
  test: testChannel,
  keys: (id: number) => api.get<ChannelKeyList>(`/api/channel/${id}/keys`),
  enableKey: (id: number, index: number) => api.post<ChannelKeyList>(`/api/channel/${id}/keys/${index}/enable`),
  disableKey: (id: number, index: number) => api.post<ChannelKeyList>(`/api/channel/${id}/keys/${index}/disable`),
  deleteKey: (id: number, index: number) => api.delete<ChannelKeyList>(`/api/channel/${id}/keys/${index}`),
  testKey: testChannelKey,
  testAll: () => api.get<null>('/api/channel/test'),
  updateBalance: (id: number) => api.get<ChannelBalance>(`/api/channel/update_balance/${id}/`),
  updateAllBalances: () => api.get<{ updated: number }>('/api/channel/update_balance'),
  testUpstream: (id: number) => api.get<UpstreamGroup[]>(`/api/channel/test_upstream/${id}`),
  fetchModelsOf: (id: number) => api.get<string[]>(`/api/channel/fetch_models/${id}`),
  fetchModels: (body: { base_url: string; type: number; key: string }) => api.post<string[]>('/api/channel/fetch_models', body),
  groups: () => api.get<string[]>('/api/group/'),
  enabledModels: () => api.get<string[]>('/api/channel/models_enabled'),
  /** Channel type → the model names of that type. */
  typeModels: () => api.get<Record<string, string[]>>('/api/models'),
};
