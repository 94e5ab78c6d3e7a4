/** A channel's balance after GET /api/channel/update_balance/{id}/, in the provider's own currency. */
export interface BalanceResult {
  balance: number;
  balance_updated_time: number;
}
