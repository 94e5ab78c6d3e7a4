import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { isAdmin, useSessionUser } from '../lib/session';

/** Pages that need a signed-in user send visitors to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to="/login" replace />;
  return children;
}

/** Admin pages (role ≥ 10); other signed-in users are sent home. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  if (!user) return <Navigate to="/login" replace />;
  if (!isAdmin(user)) return <Navigate to="/" replace />;
  return children;
}
