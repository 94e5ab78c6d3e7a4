import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { CssBaseline, ThemeProvider, type PaletteMode } from '@mui/material';
import { StorageKey } from '../lib/storage';
import { buildTheme } from './theme';

interface ThemeModeContextValue {
  mode: PaletteMode;
  toggleMode: () => void;
}

const ThemeModeContext = createContext<ThemeModeContextValue>({ mode: 'light', toggleMode: () => undefined });

function initialMode(): PaletteMode {
  const stored = localStorage.getItem(StorageKey.themeMode);
  if (stored === 'dark' || stored === 'light') return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Light/dark theme with the choice remembered under `theme-mode`. */
export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<PaletteMode>(initialMode);
  const value = useMemo(
    () => ({
      mode,
      toggleMode: () =>
        setMode((previous) => {
          const next = previous === 'dark' ? 'light' : 'dark';
          localStorage.setItem(StorageKey.themeMode, next);
          return next;
        }),
    }),
    [mode],
  );
  const theme = useMemo(() => buildTheme(mode), [mode]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ThemeModeContext.Provider>
  );
}

export function useThemeMode() {
  return useContext(ThemeModeContext);
}
