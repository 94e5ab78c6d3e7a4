import { DataSource } from 'typeorm';
import type { SubscriptionView } from '../../src/modules/plans/plan.wire';
import type { Session } from './accounts';
import { RelaySeed } from './mock-upstream-seed';
import { testSql, type TestApp } from './test-app';

const LOG_TYPE_CONSUME = 2;

/** A log row as the ledger's invariant reads it. */
export interface LedgerLogRow {
  type: number;
  quota: number;
  /** The column: the subscription a consume row drew from, or a refund went back to; 0 for the wallet. */
  subscription_id: number;
  other: Record<string, unknown>;
}

/** The user's log rows, oldest first, once every queued settlement is written. */
export async function ledgerLogs(app: TestApp, userId: number): Promise<LedgerLogRow[]> {
  await new RelaySeed(app).flush();
  const rows: Array<Record<string, unknown>> = await app.app.get(DataSource).query(testSql('SELECT type, quota, subscription_id, other FROM logs WHERE user_id = ? ORDER BY id'), [userId]);
  return rows.map((row) => ({ type: Number(row.type), quota: Number(row.quota), subscription_id: Number(row.subscription_id), other: JSON.parse(String(row.other ?? '{}')) }));
}

/** The user's subscriptions as the user's own page shows them, once every queued settlement is written. */
export async function ownSubscriptions(app: TestApp, user: Session): Promise<SubscriptionView[]> {
  await new RelaySeed(app).flush();
  return (await user.get('/api/subscription/self')).body.data as SubscriptionView[];
}

/**
 * The ledger's invariant with plans: the wallet moved by exactly its logged movements (top-ups,
 * purchases, admin changes, refunds to the wallet) minus the consume rows it paid; each
 * subscription's `used` is the sum of the consume rows that name it minus the refunds that name
 * it (a task that failed after its draw). Every row naming a subscription says so in `other` too.
 */
export async function expectLedgerBalanced(app: TestApp, user: Session, startQuota: number): Promise<void> {
  const logs = await ledgerLogs(app, user.id);
  const wallet = logs.filter((log) => log.subscription_id === 0);
  const walletMoves = wallet.filter((log) => log.type !== LOG_TYPE_CONSUME).reduce((sum, log) => sum + log.quota, 0);
  const walletSpent = wallet.filter((log) => log.type === LOG_TYPE_CONSUME).reduce((sum, log) => sum + log.quota, 0);
  expect((await new RelaySeed(app).userQuota(user.id)).quota).toBe(startQuota + walletMoves - walletSpent);
  for (const subscription of await ownSubscriptions(app, user)) {
    const named = logs.filter((log) => log.subscription_id === subscription.id);
    expect(named.every((log) => log.other.subscription_id === subscription.id)).toBe(true);
    const draws = named.filter((log) => log.type === LOG_TYPE_CONSUME).reduce((sum, log) => sum + log.quota, 0);
    const refunds = named.filter((log) => log.type !== LOG_TYPE_CONSUME).reduce((sum, log) => sum + log.quota, 0);
    expect(subscription.used).toBe(draws - refunds);
  }
}
