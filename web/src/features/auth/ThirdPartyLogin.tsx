import { useEffect, useRef, useState } from 'react';
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
import { useTranslation } from 'react-i18next';
import { StorageKey } from '../../lib/storage';
import type { SystemStatus } from '../status/types';
import { authApi, type LoginUser } from './api';

async function redirectToProvider(buildUrl: (state: string) => string) {
  const result = await authApi.oauthState(localStorage.getItem(StorageKey.aff));
  if (result.ok) window.location.assign(buildUrl(result.data));
}

declare global {
  interface Window {
    onTelegramAuth?: (user: Record<string, string | number>) => void;
  }
}

/** The Telegram login widget, which the messaging provider's script draws into our container. */
function TelegramWidget({ botName, onLogin }: { botName: string; onLogin: (user: LoginUser) => void }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    window.onTelegramAuth = (fields) => {
      const query = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)]));
      void authApi.telegramLogin(query).then((result) => result.ok && onLogin(result.data));
    };
    const script = document.createElement('script');
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.async = true;
    script.setAttribute('data-telegram-login', botName);
    script.setAttribute('data-size', 'large');
    script.setAttribute('data-onauth', 'onTelegramAuth(user)');
    script.setAttribute('data-request-access', 'write');
    container.current?.appendChild(script);
    const element = container.current;
    return () => {
      element?.replaceChildren();
      delete window.onTelegramAuth;
    };
  }, [botName, onLogin]);
  return <Box ref={container} sx={{ display: 'flex', justifyContent: 'center' }} />;
}

/** Sign-in buttons for each third-party provider enabled in the status object. */
export function ThirdPartyLogin({ status, onLogin }: { status: Partial<SystemStatus>; onLogin: (user: LoginUser) => void }) {
  const { t } = useTranslation();
  const [wechatOpen, setWechatOpen] = useState(false);
  const [wechatCode, setWechatCode] = useState('');

  const anyEnabled = status.github_oauth || status.oidc_enabled || status.linuxdo_oauth || status.wechat_login || status.telegram_oauth;
  if (!anyEnabled) return null;

  const origin = window.location.origin;
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
        {status.github_oauth && (
          <Button
            variant="outlined"
            startIcon={<GitHubIcon />}
            onClick={() =>
              void redirectToProvider(
                (state) =>
                  `https://github.com/login/oauth/authorize?client_id=${encodeURIComponent(status.github_client_id ?? '')}&state=${state}&scope=user:email`,
              )
            }
          >
            {t('auth:login.withProvider', { provider: 'GitHub' })}
          </Button>
        )}
        {status.oidc_enabled && (
          <Button
            variant="outlined"
            startIcon={<KeyOutlinedIcon />}
            onClick={() =>
              void redirectToProvider((state) => {
                const url = new URL(status.oidc_authorization_endpoint ?? '');
                url.searchParams.set('client_id', status.oidc_client_id ?? '');
                url.searchParams.set('redirect_uri', `${origin}/oauth/oidc`);
                url.searchParams.set('response_type', 'code');
                url.searchParams.set('scope', 'openid profile email');
                url.searchParams.set('state', state);
                return url.toString();
              })
            }
          >
            {t('auth:login.withProvider', { provider: 'OIDC' })}
          </Button>
        )}
        {status.linuxdo_oauth && (
          <Button
            variant="outlined"
            startIcon={<ForumOutlinedIcon />}
            onClick={() =>
              void redirectToProvider(
                (state) =>
                  `https://connect.linux.do/oauth2/authorize?response_type=code&client_id=${encodeURIComponent(status.linuxdo_client_id ?? '')}&state=${state}`,
              )
            }
          >
            {t('auth:login.withProvider', { provider: 'LinuxDO' })}
          </Button>
        )}
        {status.wechat_login && (
          <Button variant="outlined" startIcon={<QrCode2Icon />} onClick={() => setWechatOpen(true)}>
            {t('auth:login.withProvider', { provider: t('auth:wechat.name') })}
          </Button>
        )}
        {status.telegram_oauth && status.telegram_bot_name && <TelegramWidget botName={status.telegram_bot_name} onLogin={onLogin} />}
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
