import { createTheme, type PaletteMode } from '@mui/material/styles';

/** The console theme: a few primitives plus per-component tweaks, shared by light and dark modes. */
export function buildTheme(mode: PaletteMode) {
  const dark = mode === 'dark';
  return createTheme({
    palette: {
      mode,
      primary: { main: dark ? '#818cf8' : '#4f46e5' },
      secondary: { main: dark ? '#2dd4bf' : '#0d9488' },
      background: dark ? { default: '#0b1020', paper: '#121a2f' } : { default: '#f5f6fa', paper: '#ffffff' },
      divider: dark ? 'rgba(148,163,184,0.16)' : 'rgba(15,23,42,0.08)',
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily:
        '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif',
      h4: { fontWeight: 700 },
      h5: { fontWeight: 700 },
      h6: { fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiAppBar: {
        defaultProps: { elevation: 0, color: 'inherit' },
        styleOverrides: {
          root: ({ theme }) => ({
            borderBottom: `1px solid ${theme.palette.divider}`,
            backgroundColor: theme.palette.background.paper,
          }),
        },
      },
      MuiCard: {
        defaultProps: { variant: 'outlined' },
        styleOverrides: { root: { borderRadius: 14 } },
      },
      MuiCardHeader: {
        styleOverrides: {
          title: { fontSize: 17, fontWeight: 600 },
          subheader: { fontSize: 13 },
        },
      },
      MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
      MuiSelect: { defaultProps: { size: 'small' } },
      MuiTableCell: {
        styleOverrides: {
          head: ({ theme }) => ({ fontWeight: 600, color: theme.palette.text.secondary, whiteSpace: 'nowrap' }),
        },
      },
      MuiChip: { styleOverrides: { root: { fontWeight: 500 } } },
      MuiDialogTitle: { styleOverrides: { root: { fontWeight: 600 } } },
    },
  });
}
