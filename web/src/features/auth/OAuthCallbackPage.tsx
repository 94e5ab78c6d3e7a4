import { useEffect, useRef, useState } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { setSessionUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { AFTER_LOGIN_PATH } from './afterLogin';
import { authApi, needsSecondFactor } from './api';
import { SECOND_FACTOR_QUERY } from './SecondFactorStep';

/** How long the failure prompt stays before the move, so it can be read. */
const FAILURE_REDIRECT_MS = 1500;

/**
 * /oauth/{github|oidc|linuxdo}: trades the provider's code for a session, or binds the account.
 * A failure shows the server's message (the API client toasts it), then the prompt, then goes
 * to /setting, as the spec says: a failed bind stays among the settings, and a visitor who is
 * not signed in is sent on to /login by the page's guard.
 */
export function OAuthCallbackPage() {
  const { t } = useTranslation();
  const { provider = '' } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const answer = { code: searchParams.get('code') ?? '', state: searchParams.get('state') ?? '', iss: searchParams.get('iss') ?? undefined };
    void authApi.oauthCallback(provider, answer).then((result) => {
      if (!result.ok) {
        setFailed(true);
        window.setTimeout(() => navigate('/setting'), FAILURE_REDIRECT_MS);
        return;
      }
      if (result.message === 'bind') {
        toast.success(t('auth:oauth.bound'));
        navigate('/personal');
      } else if (needsSecondFactor(result.data)) {
        navigate(`/login?${SECOND_FACTOR_QUERY}=1`);
      } else if (result.data) {
        setSessionUser(result.data);
        toast.success(t('auth:login.success'));
        navigate(AFTER_LOGIN_PATH);
      }
    });
  }, [navigate, provider, searchParams, t]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 12 }}>
      {!failed && <CircularProgress />}
      <Typography color={failed ? 'error' : 'text.secondary'} data-testid="oauth-prompt">
        {t(failed ? 'auth:oauth.failed' : 'auth:oauth.processing')}
      </Typography>
    </Box>
  );
}
