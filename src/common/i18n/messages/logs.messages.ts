import type { MessageTable } from '../message-table';

/**
 * The texts of log rows, as `log.<LogMessageKey>` (see logs/log.wire.ts). A row stores its key and
 * parameters in `other` and its `content` in Chinese from here; the console renders the same key
 * from its own `logs:messages` in the reader's language (log-text.spec.ts keeps the two in step).
 */
export const logsMessages = {
  // A consumption row (new-api's wording).
  'log.consume_per_token': { zh: '模型倍率 {modelRatio}，补全倍率 {completionRatio}，分组倍率 {groupRatio}', en: 'Model ratio {modelRatio}, completion ratio {completionRatio}, group ratio {groupRatio}' },
  'log.consume_per_call': { zh: '模型价格 {modelPrice}，分组倍率 {groupRatio}', en: 'Model price {modelPrice}, group ratio {groupRatio}' },
  'log.consume_cache_hit': { zh: '响应缓存命中，按原价 {fullQuota} 的 {ratio} 倍计费', en: 'Response cache hit, billed at {ratio} of the full price {fullQuota}' },
  // A call priced per unit from a media price table (images, seconds of audio or video, task calls).
  'log.consume_media_image': { zh: '单价 {price} / 张 × {count}，分组倍率 {groupRatio}', en: 'Unit price {price} per image × {count}, group ratio {groupRatio}' },
  'log.consume_media_second': { zh: '单价 {price} / 秒 × {count}，分组倍率 {groupRatio}', en: 'Unit price {price} per second × {count}, group ratio {groupRatio}' },
  'log.consume_media_call': { zh: '单价 {price} / 次 × {count}，分组倍率 {groupRatio}', en: 'Unit price {price} per call × {count}, group ratio {groupRatio}' },
  // The task relays (Midjourney, Suno): a submit charged, its hold given back, a failed task refunded. {detail} is the upstream's or the relay's own text, as it came.
  'log.task_charged': { zh: '模型价格 {modelPrice}，分组倍率 {groupRatio}，任务 {taskId}', en: 'Model price {modelPrice}, group ratio {groupRatio}, task {taskId}' },
  'log.task_submit_failed': { zh: '{platform} 任务提交失败，退还预扣额度 {quota}', en: '{platform} submit failed; the {quota} quota held for it is returned' },
  'log.task_submit_failed_because': { zh: '{platform} 任务提交失败：{detail}，退还预扣额度 {quota}', en: '{platform} submit failed: {detail}; the {quota} quota held for it is returned' },
  'log.task_submit_refused': { zh: '{platform} 拒绝了任务提交（{detail}），退还预扣额度 {quota}', en: '{platform} submit refused ({detail}); the {quota} quota held for it is returned' },
  'log.task_not_recorded': { zh: '{platform} 任务提交后未能记录，退还预扣额度 {quota}', en: '{platform} submit could not be recorded; the {quota} quota held for it is returned' },
  'log.task_not_recorded_because': { zh: '{platform} 任务提交后未能记录：{detail}，退还预扣额度 {quota}', en: '{platform} submit could not be recorded: {detail}; the {quota} quota held for it is returned' },
  'log.task_failed_refunded': { zh: '{platform} 任务 {taskId} 失败，退还 {quota} 额度', en: '{platform} task {taskId} failed; {quota} quota refunded' },
  'log.task_failed_refunded_because': { zh: '{platform} 任务 {taskId} 失败：{detail}，退还 {quota} 额度', en: '{platform} task {taskId} failed: {detail}; {quota} quota refunded' },
  'log.hold_refunded_after_crash': { zh: '进程中断前未结算的请求，退还预扣额度 {quota}', en: 'Returned a hold of {quota} left by a request the interrupted process never settled' },
  // The ledger's movements.
  'log.new_user_quota': { zh: '新用户注册赠送 {quota} 额度', en: 'Welcome quota for a new user: {quota}' },
  'log.invitee_reward': { zh: '使用邀请码注册赠送 {quota} 额度', en: 'Quota for signing up with an invitation: {quota}' },
  'log.inviter_reward': { zh: '邀请用户 {invitee} 注册，获得邀请额度 {quota}', en: 'Invited {invitee}: {quota} added to the invitation quota' },
  'log.aff_transfer': { zh: '划转邀请额度 {quota} 到余额', en: 'Moved {quota} of invitation quota into the balance' },
  'log.root_initial_quota': { zh: '超级管理员初始额度 {quota}', en: 'Initial quota of the super administrator: {quota}' },
  'log.admin_quota_changed': { zh: '管理员将用户额度从 {from} 修改为 {to}', en: 'An administrator changed the user quota from {from} to {to}' },
  'log.admin_quota_moved_meanwhile': {
    zh: '管理员将用户额度从 {from} 修改为 {to}（编辑期间余额已变为 {current}，按差额 {delta} 调整）',
    en: 'An administrator changed the user quota from {from} to {to} (the balance had meanwhile become {current}; adjusted by {delta})',
  },
  'log.redeemed': { zh: '通过兑换码充值 {quota} 额度，兑换码 ID {id}', en: 'Redeemed a code for {quota} quota, code id {id}' },
  'log.online_top_up': { zh: '在线充值成功，充值数量 {amount}，支付金额 {money}（{method}）', en: 'Online top-up of {amount} paid {money} ({method})' },
  'log.plan_bought': { zh: '使用余额购买套餐「{plan}」，扣除 {quota} 额度', en: 'Bought the plan "{plan}" from the balance for {quota} quota' },
  'log.plan_renewed': { zh: '使用余额续费套餐「{plan}」，扣除 {quota} 额度', en: 'Renewed the plan "{plan}" from the balance for {quota} quota' },
  'log.plan_bought_paid': { zh: '开通套餐「{plan}」', en: 'Subscribed to the plan "{plan}"' },
  'log.plan_renewed_paid': { zh: '续费套餐「{plan}」', en: 'Renewed the plan "{plan}"' },
  // A channel's status changed by the monitor or the relay; {reason} is the monitor's own text.
  'log.channel_disabled': { zh: '通道「{channel}」（#{id}）已被自动禁用，原因：{reason}', en: 'Channel "{channel}" (#{id}) was disabled automatically: {reason}' },
  'log.channel_enabled': { zh: '通道「{channel}」（#{id}）已被自动启用，原因：{reason}', en: 'Channel "{channel}" (#{id}) was enabled again automatically: {reason}' },
} satisfies MessageTable;
