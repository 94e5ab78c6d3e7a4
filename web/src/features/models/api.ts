import type { Modality, ModelMetaView as ModelMeta, ModelTag, VendorView as Vendor } from '@shared/models/model-meta.wire';
import { api } from '../../api/client';

// Declared once, beside the server code that builds the answers.
export type { Modality, ModelMeta, ModelTag, Vendor };

export interface Paged<T> {
  items: T[];
  total: number;
}

/** What a model write sends. */
export type ModelMetaWrite = Omit<ModelMeta, 'id' | 'created_time' | 'updated_time'>;

export const modelsApi = {
  search: (query: { keyword: string; vendor_id?: number; tag?: string; p: number; page_size: number }) => {
    const params = new URLSearchParams({ keyword: query.keyword, p: String(query.p), page_size: String(query.page_size) });
    if (query.vendor_id !== undefined) params.set('vendor_id', String(query.vendor_id));
    if (query.tag) params.set('tag', query.tag);
    return api.get<Paged<ModelMeta>>(`/api/models/search?${params.toString()}`);
  },
  get: (id: number) => api.get<ModelMeta>(`/api/models/${id}`),
  create: (body: ModelMetaWrite) => api.post<ModelMeta>('/api/models', body),
  update: (body: Partial<ModelMetaWrite> & { id: number }) => api.put<ModelMeta>('/api/models', body),
  remove: (id: number) => api.delete<null>(`/api/models/${id}`),
  vendors: () => api.get<Vendor[]>('/api/models/vendors'),
  createVendor: (body: { name: string; icon: string }) => api.post<Vendor>('/api/models/vendors', body),
  updateVendor: (body: { id: number; name: string; icon: string }) => api.put<Vendor>('/api/models/vendors', body),
  removeVendor: (id: number) => api.delete<null>(`/api/models/vendors/${id}`),
};
