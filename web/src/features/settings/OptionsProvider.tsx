import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { OptionView } from '@shared/options/option.wire';
import i18n from '../../i18n';
import { toast } from '../../lib/toast';
import { settingsApi, type OptionKey } from './api';

/** The stored options as the server last answered them. */
export interface OptionsState {
  /** Stored string of every key; secrets are always ''. */
  values: Partial<Record<OptionKey, string>>;
  /** For secret keys: whether a value is stored (the value itself never comes back). */
  isSet: Partial<Record<OptionKey, boolean>>;
  /** Bumped on every successful load, so forms reset to the fresh values. */
  version: number;
}

interface OptionsContextValue extends OptionsState {
  loaded: boolean;
  /** Fetches GET /api/option/ again; resolves false when that failed (a toast is shown). */
  refresh: () => Promise<boolean>;
}

const OptionsContext = createContext<OptionsContextValue | null>(null);

function toState(rows: OptionView[], version: number): OptionsState {
  const values: OptionsState['values'] = {};
  const isSet: OptionsState['isSet'] = {};
  for (const row of rows) {
    values[row.key] = row.value;
    if (row.is_set !== undefined) isSet[row.key] = row.is_set;
  }
  return { values, isSet, version };
}

/**
 * Loads the option list once for the whole settings page, so switching tabs does not refetch;
 * a section calls `refresh` after it saved.
 */
export function OptionsProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<OptionsState>({ values: {}, isSet: {}, version: 0 });
  const [loaded, setLoaded] = useState(false);

  const refresh = useCallback(async () => {
    const result = await settingsApi.listOptions();
    if (!result.ok) {
      toast.error(i18n.t('settings:messages.refreshFailed', { message: result.message }));
      return false;
    }
    setState((previous) => toState(result.data, previous.version + 1));
    setLoaded(true);
    return true;
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const value = useMemo(() => ({ ...state, loaded, refresh }), [state, loaded, refresh]);
  return <OptionsContext.Provider value={value}>{children}</OptionsContext.Provider>;
}

export function useOptions(): OptionsContextValue {
  const context = useContext(OptionsContext);
  if (!context) throw new Error('useOptions must be used inside <OptionsProvider>');
  return context;
}
