import { useEffect, useState } from 'react';
import { Button } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { useTranslation } from 'react-i18next';
import type { LoginUser } from '../auth/api';
import { passkeysApi } from './api';
import { browserSupportsPasskeys, presentPasskey } from './ceremony';
import { usePasskeyCeremony } from './usePasskeyCeremony';

const SECOND_FACTOR_CEREMONY = { options: passkeysApi.secondFactorOptions, prompt: presentPasskey, submit: passkeysApi.secondFactor };

/** On the login's code step: answer with one of the account's passkeys instead, when it has any. */
export function PasskeySecondFactorButton({ onSignedIn }: { onSignedIn: (user: LoginUser) => void }) {
  const { t } = useTranslation();
  const [available, setAvailable] = useState(false);
  const { busy, run } = usePasskeyCeremony(SECOND_FACTOR_CEREMONY, onSignedIn);

  useEffect(() => {
    if (!browserSupportsPasskeys()) return;
    void passkeysApi.secondFactorAvailable().then((result) => setAvailable(result.ok && result.data.available));
  }, []);

  if (!available) return null;
  return (
    <Button variant="outlined" startIcon={<KeyIcon />} disabled={busy} onClick={() => void run()} data-testid="passkey-second-factor">
      {t('identity:passkeys.useInstead')}
    </Button>
  );
}
