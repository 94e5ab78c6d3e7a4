import { Box, Button, Link, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { NewPasswordFields } from '../../components/form/NewPasswordFields';
import { StorageKey } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { useStatus } from '../status/StatusProvider';
import { authApi } from './api';
import { AuthCard } from './AuthCard';
import { useCountdown } from './useCountdown';
import { useReferralCode } from './useReferralCode';
import { useTurnstile } from './useTurnstile';

interface RegisterForm {
  username: string;
  password: string;
  password2: string;
  email: string;
  verification_code: string;
}

const CODE_RESEND_SECONDS = 30;

export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { status } = useStatus();
  const turnstile = useTurnstile();
  const [resendIn, startCountdown] = useCountdown();
  useReferralCode();
  const { control, handleSubmit, getValues, formState } = useForm<RegisterForm>({
    defaultValues: { username: '', password: '', password2: '', email: '', verification_code: '' },
  });

  if (status.self_use_mode_enabled) return <Navigate to="/login" replace />;

  async function sendCode() {
    const email = getValues('email').trim();
    if (!email) {
      toast.error(t('auth:validation.emailRequired'));
      return;
    }
    if (turnstile.pending()) return;
    const result = await authApi.sendVerificationCode(email, turnstile.token);
    if (result.ok) {
      toast.success(t('auth:register.codeSent'));
      startCountdown(CODE_RESEND_SECONDS);
    }
  }

  async function onSubmit(values: RegisterForm) {
    if (turnstile.pending()) return;
    const result = await authApi.register(
      {
        username: values.username.trim(),
        password: values.password,
        password2: values.password2,
        email: values.email.trim(),
        verification_code: values.verification_code.trim(),
        aff_code: localStorage.getItem(StorageKey.aff) ?? '',
      },
      turnstile.token,
    );
    if (result.ok) {
      toast.success(t('auth:register.success'));
      navigate('/login');
    }
  }

  return (
    <AuthCard title={t('auth:register.title')} subtitle={t('auth:register.subtitle')}>
      <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <Stack spacing={2}>
          <FormTextField
            name="username"
            control={control}
            rules={{ required: 'auth:validation.usernameRequired', maxLength: { value: 12, message: 'auth:validation.usernameTooLong' } }}
            label={t('auth:fields.username')}
            placeholder={t('auth:placeholders.username')}
            autoComplete="username"
            autoFocus
          />
          <NewPasswordFields
            control={control}
            name="password"
            label={t('auth:fields.password')}
            placeholder={t('auth:placeholders.password')}
            confirmName="password2"
            confirmLabel={t('auth:fields.confirmPassword')}
          />
          {status.email_verification && (
            <>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                <FormTextField
                  name="email"
                  control={control}
                  rules={{ required: 'auth:validation.emailRequired' }}
                  label={t('auth:fields.email')}
                  type="email"
                  autoComplete="email"
                />
                <Button variant="outlined" onClick={() => void sendCode()} disabled={resendIn > 0} sx={{ whiteSpace: 'nowrap', minWidth: 112, height: 40 }}>
                  {resendIn > 0 ? t('auth:register.resendIn', { seconds: resendIn }) : t('auth:register.getCode')}
                </Button>
              </Stack>
              <FormTextField
                name="verification_code"
                control={control}
                rules={{ required: 'auth:validation.codeRequired' }}
                label={t('auth:fields.verificationCode')}
              />
            </>
          )}
          {turnstile.widget}
          <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting} data-testid="register-submit">
            {t('auth:register.submit')}
          </Button>
        </Stack>
      </Box>
      <Typography variant="body2" sx={{ mt: 2, textAlign: 'center' }}>
        {t('auth:register.haveAccount')}{' '}
        <Link component={RouterLink} to="/login" underline="hover">
          {t('auth:register.toLogin')}
        </Link>
      </Typography>
    </AuthCard>
  );
}
