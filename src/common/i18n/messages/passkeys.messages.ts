import type { MessageTable } from '../message-table';

/** Passkeys (WebAuthn): registration, management and sign-in. */
export const passkeysMessages = {
  'passkey.registered': { zh: '通行密钥已添加', en: 'The passkey was added' },
  'passkey.renamed': { zh: '通行密钥已重命名', en: 'The passkey was renamed' },
  'passkey.deleted': { zh: '通行密钥已删除', en: 'The passkey was deleted' },
  'passkey.not_found': { zh: '通行密钥不存在', en: 'The passkey does not exist' },
  'passkey.name_required': { zh: '请输入名称', en: 'Enter a name' },
  'passkey.name_too_long': { zh: '名称不能超过 64 个字符', en: 'The name can be at most 64 characters' },
  'passkey.limit_reached': { zh: '每个账户最多 {max} 个通行密钥', en: 'An account can have at most {max} passkeys' },
  'passkey.response_invalid': { zh: '通行密钥的应答格式不正确', en: 'The passkey answer is malformed' },
  'passkey.challenge_invalid': { zh: '通行密钥请求已过期或已使用，请重试', en: 'The passkey request expired or was already used; try again' },
  'passkey.unknown': { zh: '此通行密钥未在本站注册', en: 'This passkey is not registered here' },
  'passkey.verification_failed': { zh: '通行密钥验证失败', en: 'The passkey could not be verified' },
  'passkey.already_registered': { zh: '此通行密钥已添加过', en: 'This passkey is already registered' },
  'passkey.none_registered': { zh: '该账户没有通行密钥', en: 'This account has no passkey' },
  'passkey.origin_unknown': { zh: '无法确定控制台地址，请在系统设置中填写服务器地址', en: 'The console address is unknown; set the server address in the system settings' },
} satisfies MessageTable;
