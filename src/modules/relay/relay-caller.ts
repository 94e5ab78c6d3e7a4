import type { BudgetHolder } from '../billing/budget-window.service';
import type { CachedToken } from './caches/token-cache.service';
import type { CachedUser } from './caches/user-cache.service';

/** Who a relay request is billed to and which group's channels it may use. */
export interface RelayCaller {
  user: CachedUser;
  /** Null for the playground, which bills the user directly. */
  token: CachedToken | null;
  /** The token key (without sk-), used to keep the cached token's quota in step. */
  tokenKey: string;
  /** The group whose channels serve the request (and whose ratio prices it). */
  group: string;
  ip: string;
}

/** Playground requests are logged under token id 0 with this token name. */
export const PLAYGROUND_TOKEN_NAME = 'playground';

const NO_BUDGETS: readonly BudgetHolder[] = [];

/** The budget windows a call of the caller counts against: its token's and its user's (usually none, and then no allocation). */
export function budgetHolders(caller: RelayCaller): readonly BudgetHolder[] {
  const tokenWindows = caller.token?.budgetWindows;
  const userWindows = caller.user.budgetWindows;
  if (!tokenWindows && !userWindows) return NO_BUDGETS;
  const holders: BudgetHolder[] = [];
  if (tokenWindows) holders.push({ kind: 'token', id: caller.token!.id, windows: tokenWindows });
  if (userWindows) holders.push({ kind: 'user', id: caller.user.id, windows: userWindows });
  return holders;
}
