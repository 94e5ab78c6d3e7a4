import { Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { CodeForm } from '../identity/CodeForm';
import { PasskeySecondFactorButton } from '../passkeys/PasskeySecondFactorButton';
import { authApi, type LoginUser } from './api';

/** The login page's query flag for "the first factor passed, ask for the code" (set by the OAuth callback page). */
export const SECOND_FACTOR_QUERY = 'second_factor';

/** The login's second step: the authenticator code, a recovery code, or one of the account's passkeys. */
export function SecondFactorStep({ onSignedIn, onBack }: { onSignedIn: (user: LoginUser) => void; onBack: () => void }) {
  const { t } = useTranslation();

  async function submit(code: string) {
    const result = await authApi.loginSecondFactor(code);
    if (result.ok) onSignedIn(result.data);
  }

  return (
    <Stack spacing={2}>
      <CodeForm allowRecovery submitLabel={t('identity:secondStep.submit')} onSubmit={submit} testId="second-factor" />
      <PasskeySecondFactorButton onSignedIn={onSignedIn} />
      <Button onClick={onBack}>{t('identity:secondStep.back')}</Button>
    </Stack>
  );
}
