import type { MessageTable } from '../message-table';

/** Two-factor sign-in and the session list. */
export const identityMessages = {
  'two_factor.code_needed': { zh: '请输入两步验证码', en: 'Enter your two-factor code' },
  'two_factor.code_required': { zh: '请输入验证码', en: 'Please enter the code' },
  'two_factor.code_invalid': { zh: '验证码错误或已使用', en: 'The code is wrong or has already been used' },
  'two_factor.challenge_expired': { zh: '登录已超时，请重新输入用户名和密码', en: 'The sign-in timed out; enter your username and password again' },
  'two_factor.already_enabled': { zh: '两步验证已启用', en: 'Two-factor sign-in is already on' },
  'two_factor.not_enabled': { zh: '该账户未启用两步验证', en: 'This account does not use two-factor sign-in' },
  'two_factor.setup_not_started': { zh: '请先生成二维码', en: 'Start the setup first' },
  'two_factor.enabled': { zh: '两步验证已启用，请妥善保存恢复码', en: 'Two-factor sign-in is on; keep the recovery codes somewhere safe' },
  'two_factor.disabled': { zh: '两步验证已关闭', en: 'Two-factor sign-in is off' },
  'two_factor.reset_done': { zh: '已重置该用户的两步验证', en: "The user's two-factor sign-in was reset" },
  'two_factor.required_cannot_disable': { zh: '管理员要求您的账户启用两步验证，无法关闭', en: 'The administrator requires two-factor sign-in for your account; it cannot be turned off' },
  'two_factor.enrolment_required': { zh: '请先设置两步验证', en: 'Set up two-factor sign-in first' },
  'session.not_found': { zh: '会话不存在或已结束', en: 'The session does not exist or has ended' },
  'session.revoked': { zh: '已退出该设备', en: 'The session was signed out' },
  'session.others_revoked': { zh: '已退出其他所有设备', en: 'All other sessions were signed out' },
} satisfies MessageTable;
