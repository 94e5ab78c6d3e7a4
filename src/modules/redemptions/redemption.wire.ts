// The console type-checks against this file (web/tsconfig.json `@shared/*.wire`), so it may import only other *.wire.ts files.

/** A redemption code as administrators see it. Status: 1 unused, 2 disabled, 3 used. */
export interface RedemptionView {
  id: number;
  user_id: number;
  name: string;
  key: string;
  status: number;
  quota: number;
  created_time: number;
  redeemed_time: number;
  /** The plan the code grants instead of quota; 0 for a quota code. */
  plan_id: number;
  /** 0 until redeemed. */
  used_user_id: number;
}
