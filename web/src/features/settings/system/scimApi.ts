import type { ScimTokenCreatedView, ScimTokenView } from '@shared/scim/scim.wire';
import { api } from '../../../api/client';

export type { ScimTokenCreatedView, ScimTokenView };

/** Root's SCIM tokens: the bearer tokens identity providers call /scim/v2 with. */
export const scimApi = {
  tokens: () => api.get<ScimTokenView[]>('/api/scim/tokens'),
  createToken: (name: string) => api.post<ScimTokenCreatedView>('/api/scim/tokens', { name }),
  revokeToken: (id: number) => api.delete<null>(`/api/scim/tokens/${id}`),
};
