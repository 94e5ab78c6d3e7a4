import { useCallback, useState } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Divider,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import GitHubIcon from '@mui/icons-material/GitHub';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import QrCode2Icon from '@mui/icons-material/QrCode2';
import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import { useTranslation } from 'react-i18next';
import { StorageKey } from '../../lib/storage';
import type { SystemStatus } from '../status/types';
import { authApi, samlLoginUrl, type SignInAnswer } from './api';
import { redirectToProvider } from './providers';
import { TelegramWidget } from './TelegramWidget';

/** Sign-in buttons for each third-party provider enabled in the status object. */
export function ThirdPartyLogin({ status, onLogin }: { status: Partial<SystemStatus>; onLogin: (answer: SignInAnswer) => void }) {
  const { t } = useTranslation();
  const [wechatOpen, setWechatOpen] = useState(false);
  const [wechatCode, setWechatCode] = useState('');

  const telegramLogin = useCallback(
    (fields: Record<string, string>) => void authApi.telegramLogin(fields).then((result) => result.ok && onLogin(result.data)),
    [onLogin],
  );

  const anyEnabled = status.github_oauth || status.oidc_enabled || status.linuxdo_oauth || status.wechat_login || status.telegram_oauth || status.saml_enabled;
  if (!anyEnabled) return null;

  async function submitWechatCode() {
    const result = await authApi.wechatLogin(wechatCode.trim());
    if (result.ok) {
      setWechatOpen(false);
      onLogin(result.data);
    }
  }

  return (
    <>
      <Divider sx={{ my: 3 }}>
        <Typography variant="caption" color="text.secondary">
          {t('auth:login.orContinueWith')}
        </Typography>
      </Divider>
      <Stack spacing={1.25}>
        {status.saml_enabled && (
          <Button
            variant="outlined"
            startIcon={<BusinessOutlinedIcon />}
            onClick={() => window.location.assign(samlLoginUrl(localStorage.getItem(StorageKey.aff)))}
            data-testid="saml-login"
          >
            {t('auth:saml.signIn')}
          </Button>
        )}
        {status.github_oauth && (
          <Button
            variant="outlined"
            startIcon={<GitHubIcon />}
            onClick={() => void redirectToProvider('github', status)}
          >
            {t('auth:login.withProvider', { provider: 'GitHub' })}
          </Button>
        )}
        {status.oidc_enabled && (
          <Button
            variant="outlined"
            startIcon={<KeyOutlinedIcon />}
            onClick={() => void redirectToProvider('oidc', status)}
          >
            {t('auth:login.withProvider', { provider: 'OIDC' })}
          </Button>
        )}
        {status.linuxdo_oauth && (
          <Button
            variant="outlined"
            startIcon={<ForumOutlinedIcon />}
            onClick={() => void redirectToProvider('linuxdo', status)}
          >
            {t('auth:login.withProvider', { provider: 'LinuxDO' })}
          </Button>
        )}
        {status.wechat_login && (
          <Button variant="outlined" startIcon={<QrCode2Icon />} onClick={() => setWechatOpen(true)}>
            {t('auth:login.withProvider', { provider: t('auth:wechat.name') })}
          </Button>
        )}
        {status.telegram_oauth && status.telegram_bot_name && <TelegramWidget botName={status.telegram_bot_name} onAuth={telegramLogin} />}
      </Stack>
      <Dialog open={wechatOpen} onClose={() => setWechatOpen(false)} maxWidth="xs" fullWidth>
        <DialogTitle>{t('auth:wechat.title')}</DialogTitle>
        <DialogContent>
          {status.wechat_qrcode && (
            <Box component="img" src={status.wechat_qrcode} alt="" sx={{ display: 'block', width: 200, height: 200, mx: 'auto', mb: 2 }} />
          )}
          <DialogContentText sx={{ mb: 2 }}>{t('auth:wechat.hint')}</DialogContentText>
          <TextField label={t('auth:wechat.code')} value={wechatCode} onChange={(event) => setWechatCode(event.target.value)} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setWechatOpen(false)}>{t('common:actions.cancel')}</Button>
          <Button variant="contained" disabled={!wechatCode.trim()} onClick={() => void submitWechatCode()}>
            {t('auth:login.submit')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
