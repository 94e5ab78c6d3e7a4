import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { toast } from '../../lib/toast';
import { channelsApi } from './api';

/** Sets one tag on the selected channels (an empty selection or tag is refused before calling). */
export function SetTagDialog({ open, ids, onClose, onDone }: { open: boolean; ids: number[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [tag, setTag] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setTag('');
      setError(null);
    }
  }, [open]);

  async function submit() {
    if (ids.length === 0) {
      toast.error(t('channels:errors.selectToTag'));
      return;
    }
    if (!tag.trim()) {
      setError(t('channels:validation.tagRequired'));
      return;
    }
    const result = await channelsApi.setTag(ids, tag.trim());
    if (result.ok) {
      toast.success(t('channels:tag.setDone', { count: result.data }));
      onDone();
    }
  }

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('channels:actions.setTag')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('channels:tag.setHint', { count: ids.length })}</DialogContentText>
        <TextField
          autoFocus
          label={t('channels:fields.tag')}
          value={tag}
          onChange={(event) => setTag(event.target.value)}
          onKeyDown={(event) => event.key === 'Enter' && void submit()}
          error={!!error}
          helperText={error ?? undefined}
          slotProps={{ htmlInput: { 'data-testid': 'set-tag-input' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} data-testid="set-tag-submit">
          {t('common:actions.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
