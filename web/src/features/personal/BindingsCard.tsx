import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Box, Button, Card, CardContent, CardHeader, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Divider, Stack, TextField, Typography } from '@mui/material';
import EmailOutlinedIcon from '@mui/icons-material/EmailOutlined';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import GitHubIcon from '@mui/icons-material/GitHub';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import QrCode2Icon from '@mui/icons-material/QrCode2';
import TelegramIcon from '@mui/icons-material/Telegram';
import { useTranslation } from 'react-i18next';
import { toast } from '../../lib/toast';
import { authApi } from '../auth/api';
import { redirectToProvider } from '../auth/providers';
import { TelegramWidget } from '../auth/TelegramWidget';
import { useCountdown } from '../auth/useCountdown';
import { useStatus } from '../status/StatusProvider';
import { personalApi, type SelfUser } from './api';
import { useTurnstile } from '../auth/useTurnstile';

const CODE_RESEND_SECONDS = 30;

function BindingRow({ icon, name, value, testId, children }: { icon: ReactNode; name: string; value: string; testId: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', py: 1.25 }} data-testid={`binding-${testId}`}>
      <Box sx={{ color: 'text.secondary', display: 'flex' }}>{icon}</Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
        <Typography variant="body2" color="text.secondary" noWrap data-testid={`binding-${testId}-value`}>
          {value || t('personal:bindings.notBound')}
        </Typography>
      </Box>
      <Box sx={{ flexShrink: 0 }}>{children}</Box>
    </Stack>
  );
}

function EmailBindDialog({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const turnstile = useTurnstile();
  const [resendIn, startCountdown] = useCountdown();

  useEffect(() => {
    if (open) setCode('');
  }, [open]);

  async function sendCode() {
    if (!email.trim()) return toast.error(t('personal:bindings.emailRequired'));
    if (turnstile.pending()) return;
    const result = await authApi.sendVerificationCode(email.trim(), turnstile.token);
    if (result.ok) {
      toast.success(t('auth:register.codeSent'));
      startCountdown(CODE_RESEND_SECONDS);
    }
  }

  async function bind() {
    if (!code.trim()) return toast.error(t('personal:bindings.codeRequired'));
    const result = await personalApi.bindEmail(email.trim(), code.trim());
    if (result.ok) {
      toast.success(t('personal:bindings.bound'));
      onBound();
    }
  }

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="email-bind-dialog">
      <DialogTitle>{t('personal:bindings.bindEmail')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction="row" spacing={1}>
            <TextField label={t('personal:bindings.email')} value={email} onChange={(event) => setEmail(event.target.value)} type="email" fullWidth />
            <Button variant="outlined" disabled={resendIn > 0} onClick={() => void sendCode()} sx={{ flexShrink: 0 }}>
              {resendIn > 0 ? t('personal:bindings.resendIn', { seconds: resendIn }) : t('personal:bindings.getCode')}
            </Button>
          </Stack>
          <TextField label={t('personal:bindings.code')} value={code} onChange={(event) => setCode(event.target.value)} />
          {turnstile.widget}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
        <Button variant="contained" onClick={() => void bind()}>
          {t('personal:bindings.bind')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function WeChatBindDialog({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { t } = useTranslation();
  const { status } = useStatus();
  const [code, setCode] = useState('');

  async function bind() {
    const result = await personalApi.bindWeChat(code.trim());
    if (result.ok) {
      toast.success(t('personal:bindings.bound'));
      setCode('');
      onBound();
    }
  }

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="wechat-bind-dialog">
      <DialogTitle>{t('personal:bindings.bindWeChat')}</DialogTitle>
      <DialogContent>
        {status.wechat_qrcode && <Box component="img" src={status.wechat_qrcode} alt="" sx={{ display: 'block', width: 200, height: 200, mx: 'auto', mb: 2 }} />}
        <DialogContentText sx={{ mb: 2 }}>{t('auth:wechat.hint')}</DialogContentText>
        <TextField label={t('auth:wechat.code')} value={code} onChange={(event) => setCode(event.target.value)} fullWidth />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
        <Button variant="contained" disabled={!code.trim()} onClick={() => void bind()}>
          {t('personal:bindings.bind')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The accounts bound to this user (email, GitHub, OIDC, LinuxDO, WeChat, Telegram), and how to bind each. */
export function BindingsCard({ user, onChanged }: { user: SelfUser; onChanged: () => void }) {
  const { t } = useTranslation();
  const { status } = useStatus();
  const [dialog, setDialog] = useState<'email' | 'wechat' | null>(null);

  const bound = () => {
    setDialog(null);
    onChanged();
  };
  const bindTelegram = useCallback(
    (fields: Record<string, string>) =>
      void personalApi.bindTelegram(fields).then((result) => {
        if (!result.ok) return;
        toast.success(t('personal:bindings.bound'));
        onChanged();
      }),
    [onChanged, t],
  );
  const bindButton = (enabled: boolean, onClick: () => void, testId: string, isBound: boolean) => (
    <Button variant="outlined" size="small" disabled={!enabled} onClick={onClick} data-testid={`bind-${testId}`}>
      {enabled ? t(isBound ? 'personal:bindings.rebind' : 'personal:bindings.bind') : t('personal:bindings.disabled')}
    </Button>
  );

  return (
    <Card>
      <CardHeader title={t('personal:bindings.title')} subheader={t('personal:bindings.subtitle')} />
      <CardContent sx={{ pt: 0 }}>
        <BindingRow icon={<EmailOutlinedIcon />} name={t('personal:bindings.email')} value={user.email} testId="email">
          {bindButton(true, () => setDialog('email'), 'email', Boolean(user.email))}
        </BindingRow>
        <Divider />
        <BindingRow icon={<GitHubIcon />} name="GitHub" value={user.github_id} testId="github">
          {bindButton(Boolean(status.github_oauth), () => void redirectToProvider('github', status), 'github', Boolean(user.github_id))}
        </BindingRow>
        <Divider />
        <BindingRow icon={<KeyOutlinedIcon />} name="OIDC" value={user.oidc_id} testId="oidc">
          {bindButton(Boolean(status.oidc_enabled), () => void redirectToProvider('oidc', status), 'oidc', Boolean(user.oidc_id))}
        </BindingRow>
        <Divider />
        <BindingRow icon={<ForumOutlinedIcon />} name="LinuxDO" value={user.linux_do_id} testId="linuxdo">
          {bindButton(Boolean(status.linuxdo_oauth), () => void redirectToProvider('linuxdo', status), 'linuxdo', Boolean(user.linux_do_id))}
        </BindingRow>
        <Divider />
        <BindingRow icon={<QrCode2Icon />} name={t('auth:wechat.name')} value={user.wechat_id ? t('personal:bindings.boundValue') : ''} testId="wechat">
          {bindButton(Boolean(status.wechat_login), () => setDialog('wechat'), 'wechat', Boolean(user.wechat_id))}
        </BindingRow>
        <Divider />
        <BindingRow icon={<TelegramIcon />} name="Telegram" value={user.telegram_id} testId="telegram">
          {status.telegram_oauth && status.telegram_bot_name ? (
            <TelegramWidget botName={status.telegram_bot_name} onAuth={bindTelegram} />
          ) : (
            bindButton(false, () => undefined, 'telegram', Boolean(user.telegram_id))
          )}
        </BindingRow>
      </CardContent>
      <EmailBindDialog open={dialog === 'email'} onClose={() => setDialog(null)} onBound={bound} />
      <WeChatBindDialog open={dialog === 'wechat'} onClose={() => setDialog(null)} onBound={bound} />
    </Card>
  );
}
