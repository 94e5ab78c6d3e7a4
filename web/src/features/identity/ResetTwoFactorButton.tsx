import { useState } from 'react';
import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { isRoot, useSessionUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { identityApi } from './api';

/** Root's "reset two-factor sign-in" for a user who lost their authenticator (shown to root only). */
export function ResetTwoFactorButton({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const viewer = useSessionUser();
  const [confirming, setConfirming] = useState(false);
  if (!viewer || !isRoot(viewer)) return null;

  async function reset() {
    setConfirming(false);
    const result = await identityApi.resetTwoFactor(userId);
    if (result.ok) toast.success(result.message);
  }

  return (
    <>
      <Button variant="outlined" color="warning" onClick={() => setConfirming(true)} data-testid="reset-two-factor">
        {t('identity:reset.button')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('identity:reset.button')}
        message={t('identity:reset.confirm')}
        confirmLabel={t('identity:reset.button')}
        danger
        onClose={() => setConfirming(false)}
        onConfirm={() => void reset()}
      />
    </>
  );
}
