import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, Dialog, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { toast } from '../../lib/toast';
import { CodeForm } from './CodeForm';
import { identityApi, type TwoFactorStatusView } from './api';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';

interface PendingSetup {
  secret: string;
  qrDataUrl: string;
}

type CodeAction = 'disable' | 'regenerate';

/**
 * The personal page's two-factor section: enrolment (QR code, first code, recovery codes
 * shown once), then new recovery codes or turning it off, each confirmed with a current code.
 */
export function TwoFactorCard({ onEnrolled }: { onEnrolled?: () => void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TwoFactorStatusView | null>(null);
  const [pending, setPending] = useState<PendingSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [codeAction, setCodeAction] = useState<CodeAction | null>(null);

  const load = useCallback(async () => {
    const result = await identityApi.twoFactorStatus();
    if (result.ok) setStatus(result.data);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function beginSetup() {
    const result = await identityApi.beginTwoFactorSetup();
    if (!result.ok) return;
    const qrDataUrl = await QRCode.toDataURL(result.data.otpauth_uri, { margin: 1, width: 200 });
    setPending({ secret: result.data.secret, qrDataUrl });
  }

  async function confirmSetup(code: string) {
    const result = await identityApi.enableTwoFactor(code);
    if (!result.ok) return;
    toast.success(result.message);
    setPending(null);
    setRecoveryCodes(result.data.recovery_codes);
    await load();
  }

  async function runCodeAction(code: string) {
    if (codeAction === 'disable') {
      const result = await identityApi.disableTwoFactor(code);
      if (!result.ok) return;
      toast.success(result.message);
    } else {
      const result = await identityApi.regenerateRecoveryCodes(code);
      if (!result.ok) return;
      setRecoveryCodes(result.data.recovery_codes);
    }
    setCodeAction(null);
    await load();
  }

  function finishRecoveryCodes() {
    setRecoveryCodes(null);
    onEnrolled?.();
  }

  return (
    <Card data-testid="two-factor-card">
      <CardHeader
        title={t('identity:twoFactor.title')}
        action={status && <Chip size="small" color={status.enabled ? 'success' : 'default'} label={t(status.enabled ? 'identity:twoFactor.on' : 'identity:twoFactor.off')} data-testid="two-factor-state" />}
      />
      <CardContent sx={{ pt: 0 }}>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {t('identity:twoFactor.hint')}
          </Typography>
          {status?.required && !status.enabled && <Alert severity="warning">{t('identity:twoFactor.requiredNotice')}</Alert>}
          {recoveryCodes && <RecoveryCodesPanel codes={recoveryCodes} onDone={finishRecoveryCodes} />}
          {!recoveryCodes && status && !status.enabled && !pending && (
            <Box>
              <Button variant="contained" onClick={() => void beginSetup()} data-testid="two-factor-begin">
                {t('identity:twoFactor.setUp')}
              </Button>
            </Box>
          )}
          {pending && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { xs: 'center', sm: 'flex-start' } }}>
              <Box component="img" src={pending.qrDataUrl} alt={t('identity:twoFactor.qrAlt')} sx={{ width: 200, height: 200, borderRadius: 1, bgcolor: '#fff' }} data-testid="two-factor-qr" />
              <Stack spacing={1.5} sx={{ flex: 1, width: '100%' }}>
                <Typography variant="body2">{t('identity:twoFactor.scan')}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('identity:twoFactor.manualEntry')}
                </Typography>
                <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="two-factor-secret">
                  {pending.secret}
                </Typography>
                <CodeForm allowRecovery={false} submitLabel={t('identity:twoFactor.confirm')} onSubmit={confirmSetup} testId="two-factor-confirm" />
              </Stack>
            </Stack>
          )}
          {!recoveryCodes && status?.enabled && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
              <Typography variant="body2" sx={{ flex: 1 }} data-testid="recovery-codes-left">
                {t('identity:twoFactor.recoveryLeft', { count: status.recovery_codes_left })}
              </Typography>
              <Button variant="outlined" onClick={() => setCodeAction('regenerate')} data-testid="two-factor-regenerate">
                {t('identity:twoFactor.newRecoveryCodes')}
              </Button>
              {!status.required && (
                <Button variant="outlined" color="error" onClick={() => setCodeAction('disable')} data-testid="two-factor-disable">
                  {t('identity:twoFactor.turnOff')}
                </Button>
              )}
            </Stack>
          )}
        </Stack>
      </CardContent>
      <Dialog open={codeAction !== null} onClose={() => setCodeAction(null)} maxWidth="xs" fullWidth>
        <DialogTitle>{t(codeAction === 'disable' ? 'identity:twoFactor.turnOff' : 'identity:twoFactor.newRecoveryCodes')}</DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1 }}>
            <CodeForm allowRecovery submitLabel={t('common:actions.confirm')} onSubmit={runCodeAction} testId="two-factor-action" />
          </Box>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
