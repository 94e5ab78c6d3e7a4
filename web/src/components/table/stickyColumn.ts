import type { SxProps, Theme } from '@mui/material';

/** Keeps a row's action buttons in view when a wide table scrolls sideways. */
export const stickyActionsSx = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  whiteSpace: 'nowrap',
  boxShadow: (theme) => `inset 1px 0 0 ${theme.palette.divider}`,
} satisfies SxProps<Theme>;
