import { api } from '../../../api/client';

/** The pricing tab's calls besides the option reads and writes, which go through the settings save hook. */
export const pricingSettingsApi = {
  /** GET /api/channel/models_enabled: names some enabled channel serves; the unpriced list starts from these. */
  enabledModels: () => api.get<string[]>('/api/channel/models_enabled', { quiet: true }),
  /** POST /api/option/rest_model_ratio: every pricing map back to the shipped defaults (root only). */
  resetToDefaults: () => api.post<null>('/api/option/rest_model_ratio'),
};
