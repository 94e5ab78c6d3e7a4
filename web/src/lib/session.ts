import { useSyncExternalStore } from 'react';
import { readJson, StorageKey, writeJson } from './storage';

/** The signed-in user as stored in the browser (key `user`); its presence is the login state. */
export interface SessionUser {
  id: number;
  username: string;
  display_name?: string;
  role: number;
  status: number;
  group?: string;
  /** The settings require a second factor of this account and it has none: every page sends it to /two-factor-setup. */
  require_2fa_setup?: boolean;
}

export const ROLE_ADMIN = 10;
export const ROLE_ROOT = 100;

let current: SessionUser | null = readJson<SessionUser>(StorageKey.user);
const listeners = new Set<() => void>();
/** Where the user chose to go on signing out; unset, a signed-out visitor is sent to /login. */
let signedOutTo: string | undefined;

export function getSessionUser(): SessionUser | null {
  return current;
}

export function setSessionUser(user: SessionUser | null): void {
  current = user;
  if (user) signedOutTo = undefined;
  if (user) {
    writeJson(StorageKey.user, {
      id: user.id,
      username: user.username,
      display_name: user.display_name,
      role: user.role,
      status: user.status,
      group: user.group,
      require_2fa_setup: user.require_2fa_setup || undefined,
    });
  } else {
    localStorage.removeItem(StorageKey.user);
  }
  listeners.forEach((listener) => listener());
}

/**
 * Signs out on purpose and names the page to land on. The guard of the page being left sees
 * the user gone before the router has moved on, and would otherwise send the visitor to /login.
 */
export function endSession(goTo: string): void {
  signedOutTo = goTo;
  setSessionUser(null);
}

/** Where a guard sends a visitor who is not signed in. */
export function signedOutDestination(): string {
  return signedOutTo ?? '/login';
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(subscribe, getSessionUser);
}

export function isAdmin(user: SessionUser | null): boolean {
  return !!user && user.role >= ROLE_ADMIN;
}

export function isRoot(user: SessionUser | null): boolean {
  return !!user && user.role >= ROLE_ROOT;
}
