import { useSyncExternalStore } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { dismissToast, getToasts, subscribeToasts } from '../lib/toast';

/** Shows the oldest queued toast; the next one appears when it closes. */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts);
  const current = toasts[0];
  if (!current) return null;
  return (
    <Snackbar
      key={current.id}
      open
      autoHideDuration={current.severity === 'error' ? 6000 : 3500}
      onClose={(_, reason) => reason !== 'clickaway' && dismissToast(current.id)}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Alert
        severity={current.severity}
        variant="filled"
        onClose={() => dismissToast(current.id)}
        data-testid={`toast-${current.severity}`}
        sx={{ minWidth: 280, maxWidth: 560 }}
      >
        {current.message}
      </Alert>
    </Snackbar>
  );
}
