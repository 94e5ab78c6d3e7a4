import { useState } from 'react';
import { Alert, Button, Stack, TextField } from '@mui/material';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/CopyProvider';
import { resetApi } from './api';
import { AuthCard } from './AuthCard';

/** /user/reset: confirms the mailed link (email and token in the query) and shows the new password. */
export function ResetConfirmPage() {
  const { t } = useTranslation();
  const copy = useCopy();
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email') ?? '';
  const token = searchParams.get('token') ?? '';
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    const result = await resetApi.confirmReset(email, token);
    setBusy(false);
    if (result.ok) {
      setNewPassword(result.data);
      await copy(result.data, t('auth:reset.newPasswordCopied'));
    }
  }

  return (
    <AuthCard title={t('auth:reset.confirmTitle')}>
      <Stack spacing={2}>
        {!email || !token ? (
          <Alert severity="error">{t('auth:reset.invalidLink')}</Alert>
        ) : (
          <>
            <TextField label={t('auth:fields.email')} value={email} slotProps={{ htmlInput: { readOnly: true } }} />
            {newPassword ? (
              <TextField label={t('auth:reset.newPassword')} value={newPassword} slotProps={{ htmlInput: { readOnly: true } }} />
            ) : (
              <Button variant="contained" size="large" onClick={() => void confirm()} disabled={busy}>
                {t('auth:reset.confirmSubmit')}
              </Button>
            )}
          </>
        )}
      </Stack>
    </AuthCard>
  );
}
