import { Box, Button, Link, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { toast } from '../../lib/toast';
import { resetApi } from './api';
import { AuthCard } from './AuthCard';
import { useCountdown } from './useCountdown';
import { useTurnstile } from './useTurnstile';

const RESEND_SECONDS = 30;

/** /reset: asks the server to mail a password-reset link. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const turnstile = useTurnstile();
  const [waitFor, startCountdown] = useCountdown();
  const { control, handleSubmit, formState } = useForm<{ email: string }>({ defaultValues: { email: '' } });

  async function onSubmit(values: { email: string }) {
    if (turnstile.pending()) return;
    const result = await resetApi.requestReset(values.email.trim(), turnstile.token);
    if (result.ok) {
      toast.success(t('auth:reset.sent'));
      startCountdown(RESEND_SECONDS);
    }
  }

  return (
    <AuthCard title={t('auth:reset.title')} subtitle={t('auth:reset.subtitle')}>
      <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <Stack spacing={2}>
          <FormTextField
            name="email"
            control={control}
            rules={{ required: 'auth:validation.emailRequired' }}
            label={t('auth:fields.email')}
            type="email"
            autoComplete="email"
            autoFocus
          />
          {turnstile.widget}
          <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting || waitFor > 0}>
            {waitFor > 0 ? t('auth:reset.retryIn', { seconds: waitFor }) : t('auth:reset.submit')}
          </Button>
        </Stack>
      </Box>
      <Typography variant="body2" sx={{ mt: 2, textAlign: 'center' }}>
        <Link component={RouterLink} to="/login" underline="hover">
          {t('auth:register.toLogin')}
        </Link>
      </Typography>
    </AuthCard>
  );
}
