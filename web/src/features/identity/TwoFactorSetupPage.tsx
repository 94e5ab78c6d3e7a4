import { useCallback, useEffect } from 'react';
import { Alert, Stack } from '@mui/material';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { getSessionUser, setSessionUser } from '../../lib/session';
import { AFTER_LOGIN_PATH } from '../auth/afterLogin';
import { identityApi } from './api';
import { TwoFactorCard } from './TwoFactorCard';

/**
 * /two-factor-setup: where an account that the settings oblige to use a second factor is held
 * after sign-in until it has enrolled (the server refuses its other calls meanwhile).
 */
export function TwoFactorSetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  const enrolled = useCallback(() => {
    const user = getSessionUser();
    if (user) setSessionUser({ ...user, require_2fa_setup: false });
    navigate(AFTER_LOGIN_PATH);
  }, [navigate]);

  // The setting may have been lifted, or enrolment finished elsewhere, since this browser signed in.
  useEffect(() => {
    void identityApi.twoFactorStatus().then((result) => {
      if (result.ok && (result.data.enabled || !result.data.required)) enrolled();
    });
  }, [enrolled]);

  return (
    <PageContainer>
      <PageHeader title={t('identity:setupPage.title')} subtitle={t('identity:setupPage.subtitle')} />
      <Stack spacing={2}>
        <Alert severity="info">{t('identity:setupPage.why')}</Alert>
        <TwoFactorCard onEnrolled={enrolled} />
      </Stack>
    </PageContainer>
  );
}
