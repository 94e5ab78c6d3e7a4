import type { MessageTable } from '../message-table';

/** The ledger's log rows (stored in Chinese, the product's default), redemption codes and payments. */
export const moneyMessages = {
  'log.new_user_quota': { zh: '新用户注册赠送 {quota} 额度', en: 'Welcome quota for a new user: {quota}' },
  'log.invitee_reward': { zh: '使用邀请码注册赠送 {quota} 额度', en: 'Quota for signing up with an invitation: {quota}' },
  'log.inviter_reward': { zh: '邀请用户 {invitee} 注册，获得邀请额度 {quota}', en: 'Invited {invitee}: {quota} added to the invitation quota' },
  'log.aff_transfer': { zh: '划转邀请额度 {quota} 到余额', en: 'Moved {quota} of invitation quota into the balance' },
  'log.root_initial_quota': { zh: '超级管理员初始额度 {quota}', en: 'Initial quota of the super administrator: {quota}' },
  'log.admin_quota_moved_meanwhile': {
    zh: '管理员将用户额度从 {from} 修改为 {to}（编辑期间余额已变为 {current}，按差额 {delta} 调整）',
    en: 'An administrator changed the user quota from {from} to {to} (the balance had meanwhile become {current}; adjusted by {delta})',
  },
  'log.redeemed': { zh: '通过兑换码充值 {quota} 额度，兑换码 ID {id}', en: 'Redeemed a code for {quota} quota, code id {id}' },
  'redemption.invalid_name': { zh: '兑换码名称长度必须在 1 到 20 之间', en: 'The name must be 1 to 20 characters long' },
  'redemption.invalid_quota': { zh: '额度必须是正整数', en: 'The quota must be a positive integer' },
  'redemption.invalid_count': { zh: '一次最多创建 100 个兑换码，且数量必须大于 0', en: 'The count must be an integer from 1 to 100' },
  'redemption.invalid_status': { zh: '兑换码状态只能设置为 1（启用）或 2（禁用）', en: 'A code status can only be set to 1 (enabled) or 2 (disabled)' },
  'redemption.not_found': { zh: '兑换码不存在', en: 'Redemption code not found' },
  'redemption.used_cannot_edit': { zh: '兑换码已被使用，无法修改', en: 'The code has been used and cannot be edited' },
  'redemption.used_cannot_enable': { zh: '兑换码已被使用，无法启用或禁用', en: 'The code has been used; its status cannot change' },
  'redemption.key_required': { zh: '请输入兑换码', en: 'Please enter a redemption code' },
  'redemption.invalid_key': { zh: '无效的兑换码', en: 'Invalid redemption code' },
  'redemption.already_used': { zh: '该兑换码已被使用', en: 'This code has already been used' },
  'redemption.disabled': { zh: '该兑换码已被禁用', en: 'This code is disabled' },
  'redemption.changed_retry': { zh: '兑换码刚被修改，请重试', en: 'The code was just changed; please try again' },
  'redemption.too_many_attempts': { zh: '兑换尝试过于频繁，请稍后再试', en: 'Too many redemption attempts; please wait a minute' },
  'log.online_top_up': { zh: '在线充值成功，充值数量 {amount}，支付金额 {money}（{method}）', en: 'Online top-up of {amount} paid {money} ({method})' },
  'payment.invalid_amount': { zh: '充值数量必须是正整数', en: 'The amount must be a positive whole number' },
  'payment.amount_too_small': { zh: '充值数量不能小于 {min}', en: 'The top-up amount cannot be less than {min}' },
  'payment.not_configured': { zh: '当前管理员未配置支付信息', en: 'The administrator has not configured online payment' },
  'payment.invalid_method': { zh: '支付方式配置错误，请联系管理员', en: 'Payment method configuration error, please contact the administrator' },
  'log.hold_refunded_after_crash': { zh: '进程中断前未结算的请求，退还预扣额度 {quota}', en: 'Returned a hold of {quota} left by a request the interrupted process never settled' },
} satisfies MessageTable;
