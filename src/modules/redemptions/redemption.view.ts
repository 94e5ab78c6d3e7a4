import { RedemptionEntity } from './entities/redemption.entity';
import { RedemptionView } from './redemption.wire';

export function toRedemptionView(row: RedemptionEntity): RedemptionView {
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    key: row.key,
    status: row.status,
    quota: row.quota,
    created_time: row.created_time,
    redeemed_time: row.redeemed_time,
    used_user_id: row.used_user_id,
    plan_id: row.plan_id,
  };
}
