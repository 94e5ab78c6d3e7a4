import type { MessageTable } from '../message-table';

/** Mail, email verification, password reset, Turnstile and third-party sign-in. */
export const signinMessages = {
  'mail.not_configured': { zh: '管理员未配置 SMTP 邮件服务', en: 'The administrator has not configured SMTP mail' },
  'mail.send_failed': { zh: '邮件发送失败：{reason}', en: 'Failed to send mail: {reason}' },
} satisfies MessageTable;
