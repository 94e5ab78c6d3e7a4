import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { isAdmin, isRoot, signedOutDestination, useSessionUser } from '../lib/session';

/** Pages that need a signed-in user send visitors to /login (or where a deliberate sign-out was going). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to={signedOutDestination()} replace />;
  return children;
}

/** Admin pages (role ≥ 10); other signed-in users are sent home. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to={signedOutDestination()} replace />;
  if (!isAdmin(user)) return <Navigate to="/" replace />;
  return children;
}

/** Root's pages (role ≥ 100: the audit log); everyone else signed in is sent home. */
export function RequireRoot({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to={signedOutDestination()} replace />;
  if (!isRoot(user)) return <Navigate to="/" replace />;
  return children;
}
