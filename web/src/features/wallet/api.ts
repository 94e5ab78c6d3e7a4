import type { PayForm, TopUpView as TopUpOrder } from '@shared/payments/top-up.wire';
import type { UserView as SelfUser } from '@shared/users/user.wire';
import { api, type Page } from '../../api/client';

// Declared once, beside the server code that builds the answer.
export type { PayForm, SelfUser, TopUpOrder };

export const walletApi = {
  self: () => api.get<SelfUser>('/api/user/self'),
  redeem: (key: string) => api.post<number>('/api/user/topup', { key }),
  /** payment_method "stripe" answers Stripe's price in US dollars; without it, Epay's at Price. */
  payable: (amount: number, payment_method?: string) => api.post<string>('/api/user/amount', { amount, payment_method }),
  pay: (amount: number, payment_method: string) => api.post<PayForm>('/api/user/pay', { amount, payment_method }),
  history: (page: number, pageSize: number) => api.get<Page<TopUpOrder>>('/api/user/topup/self', { query: { p: page, page_size: pageSize } }),
};

/** Hands the browser to the payment provider: its signed form, POSTed like a normal form, or (no fields: Stripe Checkout) its page. */
export function submitPayForm(form: PayForm): void {
  if (Object.keys(form.params).length === 0) return window.location.assign(form.url);
  const element = document.createElement('form');
  element.method = 'POST';
  element.action = form.url;
  for (const [name, value] of Object.entries(form.params)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    element.appendChild(input);
  }
  document.body.appendChild(element);
  element.submit();
}
