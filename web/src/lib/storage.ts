/** Local-storage keys named by the spec; kept in one place so every page uses the same names. */
export const StorageKey = {
  user: 'user',
  status: 'status',
  quotaPerUnit: 'quota_per_unit',
  displayInCurrency: 'display_in_currency',
  pageSize: 'page-size',
  aff: 'aff',
  themeMode: 'theme-mode',
  modelsExpanded: 'modelsExpanded',
  chats: 'chats',
  footerHtml: 'footer_html',
  defaultCollapseSidebar: 'default_collapse_sidebar',
  enableDataExport: 'enable_data_export',
  enableDrawing: 'enable_drawing',
  enableTask: 'enable_task',
  mjNotifyEnabled: 'mj_notify_enabled',
  /** Channel type → its model names, from GET /api/models (the channel editor's fill button). */
  channelModels: 'channel_models',
  language: 'i18nextLng',
  /** The user's own sidebar choice; falls back to default_collapse_sidebar when unset. */
  sidebarCollapsed: 'sidebar-collapsed',
} as const;

export function readJson<T>(key: string): T | null {
  const raw = localStorage.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}
