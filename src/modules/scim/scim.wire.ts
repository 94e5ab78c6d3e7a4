/** One row of GET /api/scim/tokens: never the token itself. */
export interface ScimTokenView {
  id: number;
  name: string;
  created_time: number;
  /** 0 until an identity provider first calls with it. */
  last_used_time: number;
}

/** POST /api/scim/tokens: the only answer that carries the token, shown once. */
export interface ScimTokenCreatedView extends ScimTokenView {
  token: string;
}
