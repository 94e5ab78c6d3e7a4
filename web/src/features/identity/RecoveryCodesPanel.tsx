import { Alert, Box, Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/CopyProvider';

/** The recovery codes, shown once right after they are made; the server keeps only their hashes. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const copy = useCopy();
  return (
    <Stack spacing={1.5} data-testid="recovery-codes">
      <Alert severity="warning">{t('identity:recovery.showOnce')}</Alert>
      <Box
        component="ul"
        sx={{ m: 0, p: 1.5, listStyle: 'none', display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(112px, 1fr))', whiteSpace: 'nowrap', gap: 1, fontFamily: 'monospace', bgcolor: 'action.hover', borderRadius: 1 }}
      >
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={() => void copy(codes.join('\n'), t('identity:recovery.copied'))}>{t('identity:recovery.copy')}</Button>
        <Button variant="contained" onClick={onDone} data-testid="recovery-done">
          {t('identity:recovery.saved')}
        </Button>
      </Stack>
    </Stack>
  );
}
