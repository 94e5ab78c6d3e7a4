import type { IdentityColumn } from '../../users/users.service';

/** Who the provider says the user is, after the code exchange. */
export interface ExternalIdentity {
  /** The users column the provider's id is bound in. */
  column: IdentityColumn;
  /** The provider's stable user id. */
  id: string;
  /** Display name for an account created from this identity. */
  displayName: string;
  /** A verified address the provider shared, or ''. */
  email: string;
}

/** A provider the console redirects to, which calls back with `code` and `state`. */
export type RedirectProviderName = 'github' | 'oidc' | 'linuxdo';
