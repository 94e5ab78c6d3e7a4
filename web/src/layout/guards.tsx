import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { isAdmin, isRoot, signedOutDestination, useSessionUser } from '../lib/session';

/** Pages that need a signed-in user send visitors to /login (or where a deliberate sign-out was going). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to={signedOutDestination()} replace />;
  if (user.require_2fa_setup) return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;
  return children;
}

export const TWO_FACTOR_SETUP_PATH = '/two-factor-setup';

/** The enrolment page itself: signed in, and open while enrolment is still owed. */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to={signedOutDestination()} replace />;
  return children;
}

/** Admin pages (role ≥ 10); other signed-in users are sent home. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to={signedOutDestination()} replace />;
  if (user.require_2fa_setup) return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;
  if (!isAdmin(user)) return <Navigate to="/" replace />;
  return children;
}

/** Root's pages (role ≥ 100: the audit log); everyone else signed in is sent home. */
export function RequireRoot({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to={signedOutDestination()} replace />;
  if (user.require_2fa_setup) return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;
  if (!isRoot(user)) return <Navigate to="/" replace />;
  return children;
}
