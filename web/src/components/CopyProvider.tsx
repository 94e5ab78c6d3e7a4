import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { toast } from '../lib/toast';

type CopyFn = (text: string, successMessage?: string) => Promise<boolean>;

const CopyContext = createContext<CopyFn>(async () => false);

/**
 * Copies to the clipboard; when the browser refuses (plain http, permissions), a dialog shows the
 * text selected so the user can copy it by hand.
 */
export function CopyProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [manualText, setManualText] = useState<string | null>(null);

  const copy = useCallback<CopyFn>(
    async (text, successMessage) => {
      try {
        await navigator.clipboard.writeText(text);
        toast.success(successMessage ?? t('common:copy.copied'));
        return true;
      } catch {
        setManualText(text);
        return false;
      }
    },
    [t],
  );

  return (
    <CopyContext.Provider value={copy}>
      {children}
      <Dialog open={manualText !== null} onClose={() => setManualText(null)} fullWidth maxWidth="sm">
        <DialogTitle>{t('common:copy.manualTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('common:copy.manualHint')}</DialogContentText>
          <TextField
            value={manualText ?? ''}
            multiline
            autoFocus
            onFocus={(event) => event.target.select()}
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'manual-copy-text' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setManualText(null)}>{t('common:actions.close')}</Button>
        </DialogActions>
      </Dialog>
    </CopyContext.Provider>
  );
}

export function useCopy(): CopyFn {
  return useContext(CopyContext);
}
