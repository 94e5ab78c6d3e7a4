import type { MessageTable } from '../message-table';

/** SAML sign-in: configuration problems and the reasons a Response is refused. */
export const samlMessages = {
  'saml.disabled': { zh: '管理员未开启 SAML 登录', en: 'The administrator has not enabled SAML sign-in' },
  'saml.not_configured': { zh: '未配置 SAML 身份提供方的元数据（URL 或 XML）', en: "The SAML identity provider's metadata (URL or XML) is not set" },
  'saml.server_address_required': {
    zh: '请先在系统设置中填写服务器地址：SAML 的实体 ID 和 ACS 地址由它得出',
    en: "Set the server address in the system settings first: SAML's entity id and ACS address are derived from it",
  },
  'saml.metadata_fetch_failed': { zh: '获取 SAML 身份提供方元数据失败（{reason}）', en: "Failed to fetch the SAML identity provider's metadata ({reason})" },
  'saml.metadata_invalid': { zh: 'SAML 身份提供方元数据无效：{reason}', en: "The SAML identity provider's metadata is invalid: {reason}" },
  'saml.signature_invalid': { zh: 'SAML 断言没有有效的签名', en: 'The SAML assertion has no valid signature' },
  'saml.audience_mismatch': { zh: 'SAML 断言的受众（Audience）不是本网关', en: 'The SAML assertion is meant for another service (audience mismatch)' },
  'saml.recipient_mismatch': { zh: 'SAML 断言的接收地址（Recipient）不是本网关的 ACS 地址', en: "The SAML assertion's recipient is not this gateway's ACS address" },
  'saml.assertion_expired': { zh: 'SAML 断言已过期或尚未生效，请重新登录', en: 'The SAML assertion has expired or is not valid yet; sign in again' },
  'saml.assertion_replayed': { zh: '该 SAML 断言已被使用过，请重新登录', en: 'This SAML assertion was already used; sign in again' },
  'saml.request_unknown': {
    zh: '该 SAML 响应不对应本网关发起的登录请求，或登录已超时，请从登录页重新登录',
    en: 'The SAML response does not answer a sign-in this gateway started, or the sign-in timed out; start again from the login page',
  },
  'saml.issuer_mismatch': { zh: 'SAML 断言的签发者不是所配置的身份提供方', en: 'The SAML assertion was issued by another identity provider' },
  'saml.idp_refused': { zh: '身份提供方拒绝了此次登录', en: 'The identity provider refused the sign-in' },
  'saml.name_id_missing': { zh: 'SAML 断言中没有 NameID', en: 'The SAML assertion has no NameID' },
  'saml.name_id_transient': {
    zh: 'SAML 断言的 NameID 是临时格式（transient），无法识别账户；请在身份提供方改用持久（persistent）或邮箱格式',
    en: 'The SAML NameID is transient and cannot identify an account; use a persistent or email NameID at the identity provider',
  },
  'saml.response_invalid': { zh: '无法读取 SAML 响应', en: 'The SAML response cannot be read' },
  'saml.email_bound_elsewhere': {
    zh: '使用该邮箱的账户已绑定另一个 SAML 身份',
    en: 'The account with this email is already bound to another SAML identity',
  },
} satisfies MessageTable;
