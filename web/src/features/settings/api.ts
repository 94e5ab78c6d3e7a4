import type { OptionUpdate, OptionView } from '@shared/options/option.wire';
import { api } from '../../api/client';

export type { OptionKey } from '@shared/options/option.wire';

export const settingsApi = {
  /** Every option; secrets come back empty with `is_set`. */
  listOptions: () => api.get<OptionView[]>('/api/option/', { quiet: true }),
  /** One key per call; `quiet` because the save hook gathers the failures into one message. */
  updateOption: (update: OptionUpdate) => api.put<null>('/api/option/', update, { quiet: true }),
  /** Deletes log rows older than the moment given in unix seconds; answers the count removed. */
  clearLogsBefore: (targetTimestamp: number) => api.delete<number>('/api/log/', { query: { target_timestamp: targetTimestamp } }),
};
