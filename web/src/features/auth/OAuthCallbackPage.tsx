import { useEffect, useRef } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { setSessionUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { AFTER_LOGIN_PATH } from './afterLogin';
import { authApi } from './api';

/** /oauth/{github|oidc|linuxdo}: trades the provider's code for a session, or binds the account. */
export function OAuthCallbackPage() {
  const { t } = useTranslation();
  const { provider = '' } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const answer = { code: searchParams.get('code') ?? '', state: searchParams.get('state') ?? '', iss: searchParams.get('iss') ?? undefined };
    void authApi.oauthCallback(provider, answer).then((result) => {
      if (!result.ok) {
        toast.error(t('auth:oauth.failed'));
        window.setTimeout(() => navigate('/login'), 1500);
        return;
      }
      if (result.message === 'bind') {
        toast.success(t('auth:oauth.bound'));
        navigate('/personal');
      } else if (result.data) {
        setSessionUser(result.data);
        toast.success(t('auth:login.success'));
        navigate(AFTER_LOGIN_PATH);
      }
    });
  }, [navigate, provider, searchParams, t]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 12 }}>
      <CircularProgress />
      <Typography color="text.secondary">{t('auth:oauth.processing')}</Typography>
    </Box>
  );
}
