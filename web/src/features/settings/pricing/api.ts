import type { RatioSyncApplyRequest, RatioSyncApplyResult, RatioSyncDiff, RatioSyncSource } from '@shared/ratio-sync/ratio-sync.wire';
import { api } from '../../../api/client';

/** The pricing tab's calls besides the option reads and writes, which go through the settings save hook. */
export const pricingSettingsApi = {
  /** GET /api/channel/models_enabled: names some enabled channel serves; the unpriced list starts from these. */
  enabledModels: () => api.get<string[]>('/api/channel/models_enabled', { quiet: true }),
  /** POST /api/option/rest_model_ratio: every pricing map back to the shipped defaults (root only). */
  resetToDefaults: () => api.post<null>('/api/option/rest_model_ratio'),
};

/** Ratio sync (root only): the sources, the diff against one, and applying picked rows. */
export const ratioSyncApi = {
  sources: () => api.get<RatioSyncSource[]>('/api/ratio_sync/sources'),
  /** Replaces the whole list. */
  saveSources: (sources: RatioSyncSource[]) => api.put<RatioSyncSource[]>('/api/ratio_sync/sources', { sources }),
  /** Fetches the source and compares; writes nothing. */
  diff: (source: string) => api.post<RatioSyncDiff>('/api/ratio_sync/diff', { source }),
  apply: (request: RatioSyncApplyRequest) => api.post<RatioSyncApplyResult>('/api/ratio_sync/apply', request),
};
