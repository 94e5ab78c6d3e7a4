import { Button } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { useTranslation } from 'react-i18next';
import type { LoginUser } from '../auth/api';
import { passkeysApi } from './api';
import { browserSupportsPasskeys, presentPasskey } from './ceremony';
import { usePasskeyCeremony } from './usePasskeyCeremony';

const SIGN_IN_CEREMONY = { options: passkeysApi.signInOptions, prompt: presentPasskey, submit: passkeysApi.signIn };

/** The login page's "sign in with a passkey": no username, the browser offers the passkeys it holds for this site. */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: (user: LoginUser) => void }) {
  const { t } = useTranslation();
  const { busy, run } = usePasskeyCeremony(SIGN_IN_CEREMONY, onSignedIn);
  if (!browserSupportsPasskeys()) return null;
  return (
    <Button variant="outlined" size="large" fullWidth startIcon={<KeyIcon />} disabled={busy} onClick={() => void run()} sx={{ mt: 2 }} data-testid="passkey-sign-in">
      {t('identity:passkeys.signIn')}
    </Button>
  );
}
