import type { ReactNode } from 'react';
import { Box, Button, CircularProgress, Divider, Drawer, IconButton, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';

interface SideDrawerProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions: ReactNode;
  testId?: string;
}

/** A right-hand editing drawer: title bar, scrolling body, actions pinned at the bottom. */
export function SideDrawer({ open, title, onClose, children, actions, testId }: SideDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 460 } }, 'data-testid': testId } as object }}>
      <Stack direction="row" sx={{ alignItems: 'center', px: 2.5, py: 1.5 }}>
        <Typography variant="h6" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <IconButton onClick={onClose} aria-label={t('common:actions.close')}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Divider />
      <Box sx={{ flex: 1, overflowY: 'auto', p: 2.5 }}>{children}</Box>
      <Divider />
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', p: 2 }}>
        {actions}
      </Stack>
    </Drawer>
  );
}

interface DrawerFormActionsProps {
  /** The id of the `<form>` in the drawer body that the submit button submits. */
  formId: string;
  disabled: boolean;
  onCancel: () => void;
  /** Translated submit text; "Submit" when left out. */
  submitLabel?: string;
  submitTestId?: string;
}

/** The usual `actions` of a form drawer: Cancel, and a submit button tied to the body's form by id. */
export function DrawerFormActions({ formId, disabled, onCancel, submitLabel, submitTestId }: DrawerFormActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Button onClick={onCancel}>{t('common:actions.cancel')}</Button>
      <Button variant="contained" type="submit" form={formId} disabled={disabled} data-testid={submitTestId}>
        {submitLabel ?? t('common:actions.submit')}
      </Button>
    </>
  );
}

/** A centred spinner for a drawer body whose record is still loading. */
export function DrawerLoading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <CircularProgress />
    </Box>
  );
}
