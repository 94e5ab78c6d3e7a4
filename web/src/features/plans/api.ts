import type { PlanDeletion, PlanView as Plan, SubscriptionView as Subscription } from '@shared/plans/plan.wire';
import type { BudgetWindow } from '@shared/billing/budget.wire';
import type { PayForm } from '@shared/payments/top-up.wire';
import { api } from '../../api/client';

// Declared once, beside the server code that builds the answer.
export type { Plan, Subscription };

/** What a plan write sends. */
export interface PlanWrite {
  name: string;
  price: number;
  duration_days: number;
  group: string;
  total_quota: number;
  budget_windows: BudgetWindow[];
  /** Empty: every model. */
  models: string[];
  enabled: boolean;
  allow_wallet_fallback: boolean;
}

export const plansApi = {
  list: () => api.get<Plan[]>('/api/plan/'),
  get: (id: number) => api.get<Plan>(`/api/plan/${id}`),
  create: (body: PlanWrite) => api.post<Plan>('/api/plan/', body),
  update: (body: Partial<PlanWrite> & { id: number }) => api.put<Plan>('/api/plan/', body),
  remove: (id: number) => api.delete<PlanDeletion>(`/api/plan/${id}`),
  /** The wallet's side: plans on sale, the caller's subscriptions, buying. */
  onSale: () => api.get<Plan[]>('/api/subscription/plans'),
  own: () => api.get<Subscription[]>('/api/subscription/self'),
  buyWithBalance: (planId: number) => api.post<Subscription>('/api/subscription/self', { plan_id: planId }),
  payOnline: (planId: number, paymentMethod: string) => api.post<PayForm>('/api/user/pay', { plan_id: planId, payment_method: paymentMethod }),
};
