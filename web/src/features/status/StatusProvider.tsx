import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { api } from '../../api/client';
import i18n from '../../i18n';
import { readJson, StorageKey, writeJson } from '../../lib/storage';
import { toast } from '../../lib/toast';
import type { SystemStatus } from './types';

interface StatusContextValue {
  /** The last known status: the cached copy until the fresh one arrives. */
  status: Partial<SystemStatus>;
  /** True once GET /api/status has answered in this page load. */
  loaded: boolean;
}

const StatusContext = createContext<StatusContextValue>({ status: {}, loaded: false });

/** Mirrors the status fields other pages read straight from storage, under the spec's key names. */
function cacheStatus(status: SystemStatus) {
  writeJson(StorageKey.status, status);
  localStorage.setItem(StorageKey.quotaPerUnit, String(status.quota_per_unit));
  localStorage.setItem(StorageKey.displayInCurrency, String(status.display_in_currency));
  localStorage.setItem(StorageKey.footerHtml, status.footer_html ?? '');
  localStorage.setItem(StorageKey.defaultCollapseSidebar, String(status.default_collapse_sidebar));
  localStorage.setItem(StorageKey.enableDataExport, String(status.enable_data_export));
  localStorage.setItem(StorageKey.enableDrawing, String(status.enable_drawing));
  localStorage.setItem(StorageKey.enableTask, String(status.enable_task));
  localStorage.setItem(StorageKey.mjNotifyEnabled, String(status.mj_notify_enabled));
  writeJson(StorageKey.chats, status.chats ?? []);
}

// Fetched once per page load, even if the provider mounts twice (React strict mode in development).
let statusRequest: Promise<SystemStatus | null> | null = null;
function loadStatus(): Promise<SystemStatus | null> {
  statusRequest ??= api.get<SystemStatus>('/api/status', { quiet: true }).then((result) => {
    if (!result.ok) {
      toast.error(i18n.t('common:errors.statusFailed'));
      return null;
    }
    cacheStatus(result.data);
    return result.data;
  });
  return statusRequest;
}

const reloadListeners = new Set<(status: SystemStatus) => void>();

/** Fetches the status again (after a settings change it publishes) and hands it to the mounted provider. */
export async function reloadStatus(): Promise<void> {
  statusRequest = null;
  const status = await loadStatus();
  if (status) reloadListeners.forEach((listener) => listener(status));
}

export function StatusProvider({ children }: { children: ReactNode }) {
  const [value, setValue] = useState<StatusContextValue>(() => ({
    status: readJson<SystemStatus>(StorageKey.status) ?? {},
    loaded: false,
  }));

  useEffect(() => {
    let active = true;
    void loadStatus().then((status) => {
      if (!active) return;
      setValue((previous) => ({ status: status ?? previous.status, loaded: true }));
    });
    const onReload = (status: SystemStatus) => setValue({ status, loaded: true });
    reloadListeners.add(onReload);
    return () => {
      active = false;
      reloadListeners.delete(onReload);
    };
  }, []);

  useEffect(() => {
    if (value.status.system_name) document.title = value.status.system_name;
  }, [value.status.system_name]);

  return <StatusContext.Provider value={value}>{children}</StatusContext.Provider>;
}

export function useStatus() {
  return useContext(StatusContext);
}
