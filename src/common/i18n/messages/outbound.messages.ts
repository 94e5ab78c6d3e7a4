import type { MessageTable } from '../message-table';

/** Refusals of the outbound guard (channel base URLs, model lists, probes). */
export const outboundMessages = {
  'outbound.refused_scheme': { zh: '地址 {host} 被拒绝：只允许 http 和 https', en: 'Address {host} refused: only http and https are allowed' },
  'outbound.refused_credentials': { zh: '地址 {host} 被拒绝：地址中不能包含用户名或密码', en: 'Address {host} refused: the URL must not contain a user name or password' },
  'outbound.refused_port': { zh: '地址 {host} 被拒绝：该端口属于非 HTTP 服务', en: 'Address {host} refused: this port belongs to a non-HTTP service' },
  'outbound.refused_forbidden': {
    zh: '地址 {host} 被拒绝：链路本地、云元数据、组播和保留地址始终禁止访问',
    en: 'Address {host} refused: link-local, cloud metadata, multicast and reserved addresses are always refused',
  },
  'outbound.refused_private': {
    zh: '地址 {host} 被拒绝：它指向本机或内网。如需使用本机或内网服务（例如 Ollama），请由超级管理员开启设置 {setting}',
    en: 'Address {host} refused: it points to this machine or a private network. To use a local or LAN service (such as Ollama), the root user must turn on the setting {setting}',
  },
  'outbound.refused_unresolvable': { zh: '地址 {host} 无法解析', en: 'Address {host} could not be resolved' },
} satisfies MessageTable;
