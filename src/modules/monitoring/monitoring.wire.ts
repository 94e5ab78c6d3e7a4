/** A channel's balance after GET /api/channel/update_balance/{id}/, in the provider's own currency. */
export interface BalanceResult {
  balance: number;
  balance_updated_time: number;
}

/** One kind of client (the API it called) seen reaching an upstream through one group. */
export interface UpstreamClientType {
  client_type: string;
  count: number;
  /** Unix seconds; 0 when never seen. */
  first_seen: number;
  last_seen: number;
}

/** A group whose requests reach the channel's upstream, as GET /api/channel/test_upstream/{id} answers. */
export interface UpstreamGroup {
  group: string;
  first_seen: number;
  last_seen: number;
  client_types: UpstreamClientType[];
}
