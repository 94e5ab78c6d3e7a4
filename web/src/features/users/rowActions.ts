import { ROLE_ADMIN, ROLE_ROOT, type SessionUser } from '../../lib/session';
import type { AdminUser, ManageAction } from './api';

/**
 * Why an action is unavailable on a row (an i18n key), or null when it may be tried. Mirrors the
 * server's rules so they are visible before clicking: nobody acts on an equal or higher role, only
 * root promotes to admin, and the super administrator cannot be demoted, disabled or deleted.
 */
export function blockedReason(me: SessionUser, row: AdminUser, action: ManageAction | 'edit'): string | null {
  if (action === 'edit') {
    return row.id === me.id || row.role < me.role ? null : 'users:blocked.higherRole';
  }
  if (row.role >= ROLE_ROOT) return 'users:blocked.root';
  if (row.role >= me.role) return 'users:blocked.higherRole';
  switch (action) {
    case 'promote':
      if (row.role >= ROLE_ADMIN) return 'users:blocked.alreadyAdmin';
      return me.role >= ROLE_ROOT ? null : 'users:blocked.onlyRootPromotes';
    case 'demote':
      return row.role < ROLE_ADMIN ? 'users:blocked.alreadyUser' : null;
    case 'enable':
      return row.status === 3 ? 'users:blocked.cannotEnable' : null;
    default:
      return null;
  }
}
