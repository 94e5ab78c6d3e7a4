/** What was changed: a settings key, a channel, a user, a token, a redemption code, a SCIM provisioning token. */
export type AuditEntity = 'option' | 'channel' | 'user' | 'token' | 'redemption' | 'scim_token';

/** A field's change: its old and new values, or only that it changed when the value is a secret. */
export type AuditFieldChange = { from: unknown; to: unknown } | { changed: true };

/** One row of GET /api/audit/. */
export interface AuditLogView {
  id: number;
  created_at: number;
  actor_id: number;
  actor_username: string;
  actor_ip: string;
  entity: AuditEntity;
  /** The channel, user, token or code id, or the settings key; several ids comma-separated for a bulk change. */
  entity_id: string;
  /** create, update, delete, or what a bulk or manage action did (enable, disable, promote, reset…). */
  action: string;
  changes: Record<string, AuditFieldChange>;
  /** The usage-log row of the quota change this row goes with (0: none). */
  log_id: number;
}
