import { LogEntity } from './entities/log.entity';
import { AdminLogView, LogView } from './log.wire';

export function toAdminLogView(log: LogEntity): AdminLogView {
  return { ...toLogView(log), channel: log.channel_id, channel_name: log.channel_name, ip: log.ip, other: log.other ?? '' };
}

export function toLogView(log: LogEntity): LogView {
  return {
    id: log.id,
    created_at: log.created_at,
    type: log.type,
    user_id: log.user_id,
    username: log.username,
    token_name: log.token_name,
    model_name: log.model_name,
    group: log.group,
    is_stream: log.is_stream,
    use_time: log.use_time,
    prompt_tokens: log.prompt_tokens,
    completion_tokens: log.completion_tokens,
    quota: log.quota,
    content: log.content ?? '',
    other: withoutAdminInfo(log.other),
  };
}

/** `other.admin_info` names the channels tried for the request: not for the user's eyes. */
function withoutAdminInfo(other: string | null): string {
  if (!other) return '';
  try {
    const parsed: unknown = JSON.parse(other);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return '';
    const { admin_info: _adminInfo, ...rest } = parsed as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return '';
  }
}
