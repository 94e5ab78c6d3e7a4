import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Typography } from '@mui/material';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { setSessionUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { AFTER_LOGIN_PATH } from './afterLogin';
import { authApi } from './api';

/** The server's refusal code (`saml.signature_invalid`, `user.register_disabled`) as the key of its explanation. */
function errorKey(code: string): string {
  return `auth:saml.errors.${code.slice(code.indexOf('.') + 1)}`;
}

/**
 * /saml/callback: where the ACS sends the browser. With `error`, says why the IdP's answer was
 * refused; otherwise the session cookie is already set, and the page loads the signed-in user
 * (the ACS could not answer the console itself: it was the IdP's form post).
 */
export function SamlCallbackPage() {
  const { t, i18n } = useTranslation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);
  const refusal = searchParams.get('error');
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (refusal || started.current) return;
    started.current = true;
    void authApi.samlSession().then((result) => {
      if (!result.ok) {
        setFailed(true);
        return;
      }
      setSessionUser(result.data);
      toast.success(t('auth:login.success'));
      navigate(AFTER_LOGIN_PATH);
    });
  }, [navigate, refusal, t]);

  if (refusal || failed) {
    const key = refusal ? errorKey(refusal) : '';
    const reason = refusal && i18n.exists(key) ? t(key) : t('auth:saml.errors.unknown', { code: refusal ?? '' });
    return (
      <Box sx={{ maxWidth: 480, mx: 'auto', py: 8, px: 2 }}>
        <Alert severity="error" data-testid="saml-error">
          <Typography variant="subtitle1" component="h1" sx={{ fontWeight: 600 }}>
            {t('auth:saml.failedTitle')}
          </Typography>
          {reason}
        </Alert>
        <Button component={RouterLink} to="/login" sx={{ mt: 2 }}>
          {t('auth:saml.backToLogin')}
        </Button>
      </Box>
    );
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 12 }}>
      <CircularProgress />
      <Typography color="text.secondary">{t('auth:saml.processing')}</Typography>
    </Box>
  );
}
