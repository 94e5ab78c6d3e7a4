import type { MessageTable } from '../message-table';

/** Messages of channel monitoring, balances, alerts and the data dashboard. */
export const monitoringMessages = {
  'monitoring.balance_unsupported': { zh: '该渠道类型不支持查询余额', en: 'This channel type has no balance API' },
  'monitoring.balance_failed': { zh: '查询余额失败：{message}', en: 'Failed to query the balance: {message}' },
  'monitoring.balances_updated': { zh: '已更新所有已启用渠道的余额', en: 'Balances of all enabled channels updated' },
  'data.invalid_window': { zh: '开始时间不能晚于结束时间', en: 'The start time must not be after the end time' },
  'data.window_too_long': { zh: '时间跨度不能超过一年', en: 'The time span must not exceed one year' },
  'data.hourly_window_too_long': { zh: '按小时查看时，时间跨度不能超过 {days} 天，请缩短时间范围或按天查看', en: 'By hour, the time span must not exceed {days} days: shorten the window or view by day' },
  'data.invalid_granularity': { zh: '时间粒度只能是 hour、day 或 week', en: 'Granularity must be hour, day or week' },
} satisfies MessageTable;
