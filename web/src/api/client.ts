import i18n from '../i18n';
import { getSessionUser, setSessionUser } from '../lib/session';
import { toast } from '../lib/toast';

/** The envelope every /api answer uses. */
interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/**
 * `extras` holds fields some answers carry beside the envelope's own (the pricing page's
 * group_ratio and usable_group, a channel test's time).
 */
export type ApiResult<T> = { ok: true; data: T; message: string; extras: Record<string, unknown> } | { ok: false; message: string; extras?: Record<string, unknown> };

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Do not toast a `success:false` message; the caller shows its own. */
  quiet?: boolean;
  /**
   * Shown when no answer arrived (the connection failed), instead of the generic error: a form whose save may or
   * may not have reached the server says so ("submit failed, do not resubmit").
   */
  noResponseMessage?: string;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function handleSessionExpired() {
  setSessionUser(null);
  if (window.location.pathname !== '/login') {
    window.location.assign('/login?expired=true');
  }
}

function httpErrorMessage(status: number, serverMessage: string): string {
  switch (status) {
    case 429:
      return i18n.t('common:errors.tooManyRequests');
    case 500:
      return i18n.t('common:errors.serverError');
    case 405:
      return i18n.t('common:errors.demoOnly');
    default:
      return i18n.t('common:errors.generic', { message: serverMessage || `HTTP ${status}` });
  }
}

/**
 * The one way the console talks to the server. Sends the session user's id and the UI language,
 * unwraps the envelope and turns every failure into a toast; callers only branch on `ok`.
 */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': i18n.language === 'en' ? 'en' : 'zh-CN',
  };
  const user = getSessionUser();
  if (user) headers['New-Api-User'] = String(user.id);
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  let envelope: Envelope<T> | null = null;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    envelope = (await response.json().catch(() => null)) as Envelope<T> | null;
  } catch (error) {
    const message = options.noResponseMessage ?? i18n.t('common:errors.generic', { message: (error as Error).message });
    toast.error(message);
    return { ok: false, message };
  }

  if (response.status === 401) {
    handleSessionExpired();
    return { ok: false, message: envelope?.message ?? '' };
  }
  if (!response.ok) {
    const message = httpErrorMessage(response.status, envelope?.message ?? response.statusText);
    toast.error(message);
    return { ok: false, message };
  }
  if (!envelope || typeof envelope.success !== 'boolean') {
    const message = i18n.t('common:errors.generic', { message: i18n.t('common:errors.badResponse') });
    toast.error(message);
    return { ok: false, message };
  }
  const { success, message, data, ...extras } = envelope;
  if (!success) {
    if (!options.quiet) toast.error(message);
    return { ok: false, message, extras };
  }
  return { ok: true, data, message, extras };
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

/** A page of list results as the server returns it. */
export interface Page<T> {
  page: number;
  page_size: number;
  total: number;
  items: T[];
  /** More than `total` match: the server stopped counting there (the usage log's cap). */
  total_capped?: boolean;
}
