import type { AdminLogView, LogOther, LogStat, LogView } from '@shared/logs/log.wire';
import type { UserView } from '@shared/users/user.wire';
import { api, type Page } from '../../api/client';

// Declared once, beside the server code that builds the answer.
export type { LogOther, LogStat };

export const LOG_TYPES = [1, 2, 3, 4] as const;
export const LOG_TYPE_CONSUME = 2;

/** Consumption entries (and unknown type 0) carry a channel, token, model, timing and a charge; the others only move the balance. */
export function isBillable(log: Pick<LogView, 'type'>): boolean {
  return log.type === LOG_TYPE_CONSUME || log.type === 0;
}

/** One table lists both answers, so the admin-only fields are optional here. */
export type LogEntry = LogView & Partial<Omit<AdminLogView, keyof LogView>>;

export function parseOther(text: string): LogOther {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as LogOther) : {};
  } catch {
    return {};
  }
}

export interface LogFilters {
  token_name: string;
  model_name: string;
  group: string;
  /** 0 means every type. */
  type: number;
  start_timestamp: number;
  end_timestamp: number;
  /** Admins only. */
  username: string;
  channel: string;
  /** The draws on one subscription (digits; '' for every entry). */
  subscription_id: string;
}

/** The part of GET /api/user/:id the user-info dialog shows. */
export type UserInfo = Pick<UserView, 'id' | 'username' | 'display_name' | 'group' | 'quota' | 'used_quota' | 'request_count'>;

function toQuery(filters: LogFilters, admin: boolean) {
  return {
    type: filters.type || undefined,
    token_name: filters.token_name.trim() || undefined,
    model_name: filters.model_name.trim() || undefined,
    group: filters.group.trim() || undefined,
    start_timestamp: filters.start_timestamp || undefined,
    end_timestamp: filters.end_timestamp || undefined,
    username: admin ? filters.username.trim() || undefined : undefined,
    channel: admin ? filters.channel.trim() || undefined : undefined,
    subscription_id: filters.subscription_id.trim() || undefined,
  };
}

export const logsApi = {
  list: (filters: LogFilters, admin: boolean, page: number, pageSize: number) =>
    api.get<Page<LogEntry>>(admin ? '/api/log/' : '/api/log/self/', { query: { ...toQuery(filters, admin), p: page, page_size: pageSize } }),
  stat: (filters: LogFilters, admin: boolean) => api.get<LogStat>(admin ? '/api/log/stat' : '/api/log/self/stat', { query: toQuery(filters, admin) }),
  user: (id: number) => api.get<UserInfo>(`/api/user/${id}`),
};
