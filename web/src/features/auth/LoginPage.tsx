import { useCallback, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  Stack,
} from '@mui/material';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { setSessionUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { PasskeySignInButton } from '../passkeys/PasskeySignInButton';
import { useStatus } from '../status/StatusProvider';
import { AFTER_LOGIN_PATH } from './afterLogin';
import { authApi, needsSecondFactor, type LoginUser, type SignInAnswer } from './api';
import { SECOND_FACTOR_QUERY, SecondFactorStep } from './SecondFactorStep';
import { AuthCard } from './AuthCard';
import { ThirdPartyLogin } from './ThirdPartyLogin';
import { useReferralCode } from './useReferralCode';
import { useTurnstile } from './useTurnstile';

interface LoginForm {
  username: string;
  password: string;
}

const credentialRule = { required: 'auth:validation.credentialsRequired' };

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { status } = useStatus();
  const turnstile = useTurnstile();
  const [defaultPasswordWarning, setDefaultPasswordWarning] = useState(false);
  const { control, handleSubmit, formState } = useForm<LoginForm>({ defaultValues: { username: '', password: '' } });
  // A third-party sign-in that needs the second factor comes back here from its callback page.
  const [secondFactor, setSecondFactor] = useState(searchParams.get(SECOND_FACTOR_QUERY) === '1');

  const expired = searchParams.get('expired') === 'true';

  useReferralCode();

  const completeLogin = useCallback(
    (user: LoginUser) => {
      setSessionUser(user);
      toast.success(t('auth:login.success'));
      if (user.require_password_change) {
        setDefaultPasswordWarning(true);
      } else {
        navigate(AFTER_LOGIN_PATH);
      }
    },
    [navigate, t],
  );

  const answerSignIn = useCallback(
    (answer: SignInAnswer) => {
      if (needsSecondFactor(answer)) setSecondFactor(true);
      else completeLogin(answer);
    },
    [completeLogin],
  );

  async function onSubmit(values: LoginForm) {
    if (turnstile.pending()) return;
    const result = await authApi.login({ username: values.username.trim(), password: values.password }, turnstile.token);
    if (result.ok) answerSignIn(result.data);
  }

  if (secondFactor) {
    return (
      <AuthCard title={t('identity:secondStep.title')} subtitle={t('identity:secondStep.subtitle')}>
        <SecondFactorStep onSignedIn={completeLogin} onBack={() => setSecondFactor(false)} />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth:login.title')} subtitle={t('auth:login.subtitle', { name: status.system_name || t('shell:defaultSystemName') })}>
      {expired && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="expired-alert">
          {t('auth:login.expired')}
        </Alert>
      )}
      {/* Only an explicit false hides the form: before the status loads, password sign-in is assumed. */}
      {status.password_login_enabled !== false && (
        <>
          <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
            <Stack spacing={2}>
              <FormTextField
                name="username"
                control={control}
                rules={credentialRule}
                label={t('auth:fields.usernameOrEmail')}
                autoComplete="username"
                autoFocus
              />
              <FormTextField
                name="password"
                control={control}
                rules={credentialRule}
                label={t('auth:fields.password')}
                type="password"
                autoComplete="current-password"
              />
              {turnstile.widget}
              <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting} data-testid="login-submit">
                {t('auth:login.submit')}
              </Button>
            </Stack>
          </Box>
          <Stack direction="row" sx={{ justifyContent: 'space-between', mt: 2 }}>
            <Link component={RouterLink} to="/reset" variant="body2" underline="hover">
              {t('auth:login.forgot')}
            </Link>
            {!status.self_use_mode_enabled && (
              <Link component={RouterLink} to="/register" variant="body2" underline="hover">
                {t('auth:login.noAccount')}
              </Link>
            )}
          </Stack>
        </>
      )}
      <PasskeySignInButton onSignedIn={completeLogin} />
      <ThirdPartyLogin status={status} onLogin={answerSignIn} />

      <Dialog open={defaultPasswordWarning} maxWidth="xs" fullWidth data-testid="default-password-modal">
        <DialogTitle>{t('auth:defaultPassword.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('auth:defaultPassword.body')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => navigate(AFTER_LOGIN_PATH)}>{t('auth:defaultPassword.later')}</Button>
          <Button variant="contained" onClick={() => navigate('/personal?change_password=1')}>
            {t('auth:defaultPassword.changeNow')}
          </Button>
        </DialogActions>
      </Dialog>
    </AuthCard>
  );
}
