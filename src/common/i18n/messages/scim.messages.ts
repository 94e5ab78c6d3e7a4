import type { MessageTable } from '../message-table';

/** SCIM provisioning tokens (the settings page); the SCIM protocol itself answers in English, in its own error shape. */
export const scimMessages = {
  'scim.token_name_required': { zh: '请填写令牌名称（最多 64 个字符）', en: 'Name the token (at most 64 characters)' },
  'scim.token_not_found': { zh: 'SCIM 令牌不存在', en: 'No such SCIM token' },
  'scim.token_created': { zh: 'SCIM 令牌已创建，请立即复制，它只显示这一次', en: 'SCIM token created. Copy it now: it is shown only this once' },
  'scim.token_revoked': { zh: 'SCIM 令牌已吊销', en: 'The SCIM token was revoked' },
} satisfies MessageTable;
