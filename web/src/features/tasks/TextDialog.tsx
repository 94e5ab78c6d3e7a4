import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** A long text (prompt, failure reason, a task as JSON) shown whole. */
export function TextDialog({ title, text, onClose }: { title: string; text: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={text !== null} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers data-testid="task-text-dialog">
        <Typography component="pre" variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'monospace', m: 0 }}>
          {text}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** A cell that shows the start of a long text; a click opens the whole. */
export function LongTextCell({ text, onOpen, testId }: { text: string; onOpen: (text: string) => void; testId?: string }) {
  if (!text) return <>-</>;
  return (
    <Typography variant="body2" noWrap title={text} onClick={() => onOpen(text)} sx={{ maxWidth: 220, cursor: 'pointer' }} data-testid={testId}>
      {text}
    </Typography>
  );
}
