// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.

/** One of the user's own online top-up orders. */
export interface TopUpView {
  id: number;
  amount: number;
  money: string;
  quota: number;
  trade_no: string;
  payment_method: string;
  /** 'pending' until the provider confirms, then 'success'. */
  status: string;
  /** The plan this order bought (0: a top-up of `amount`). */
  plan_id: number;
  create_time: number;
  complete_time: number;
}

/** What POST /api/user/pay answers: the provider's form, to be POSTed by the browser. */
export interface PayForm {
  url: string;
  params: Record<string, string>;
}
