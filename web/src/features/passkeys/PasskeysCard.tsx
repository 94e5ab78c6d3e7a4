import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, Divider, Stack, Typography } from '@mui/material';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import KeyIcon from '@mui/icons-material/Key';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { RowIconAction } from '../../components/table/RowIconAction';
import { formatTimestamp } from '../../lib/time';
import { toast } from '../../lib/toast';
import { passkeysApi, type PasskeyView } from './api';
import { browserSupportsPasskeys, createPasskey } from './ceremony';
import { RenamePasskeyDialog } from './RenamePasskeyDialog';
import { usePasskeyCeremony } from './usePasskeyCeremony';

const REGISTRATION_CEREMONY = { options: passkeysApi.registrationOptions, prompt: createPasskey, submit: passkeysApi.register };

/** The personal page's passkeys: add one from this browser or device, rename, delete. */
export function PasskeysCard() {
  const { t } = useTranslation();
  const [passkeys, setPasskeys] = useState<PasskeyView[]>([]);
  const [renaming, setRenaming] = useState<PasskeyView | null>(null);
  const [deleting, setDeleting] = useState<PasskeyView | null>(null);
  const supported = browserSupportsPasskeys();

  const load = useCallback(async () => {
    const result = await passkeysApi.list();
    if (result.ok) setPasskeys(result.data);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const registration = usePasskeyCeremony(REGISTRATION_CEREMONY, (_passkey, message) => {
    toast.success(message);
    void load();
  });

  async function rename(name: string) {
    if (!renaming) return;
    const result = await passkeysApi.rename(renaming.id, name);
    if (!result.ok) return;
    toast.success(result.message);
    setRenaming(null);
    await load();
  }

  async function remove() {
    if (!deleting) return;
    const result = await passkeysApi.remove(deleting.id);
    setDeleting(null);
    if (result.ok) toast.success(result.message);
    await load();
  }

  return (
    <Card data-testid="passkeys-card">
      <CardHeader
        title={t('identity:passkeys.title')}
        action={
          supported && (
            <Button variant="contained" startIcon={<KeyIcon />} disabled={registration.busy} onClick={() => void registration.run()} data-testid="passkey-add">
              {t('identity:passkeys.add')}
            </Button>
          )
        }
      />
      <CardContent sx={{ pt: 0 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('identity:passkeys.hint')}
        </Typography>
        {!supported && <Alert severity="info">{t('identity:passkeys.unsupported')}</Alert>}
        {passkeys.length === 0 && supported && (
          <Typography variant="body2" sx={{ py: 1 }} data-testid="passkeys-empty">
            {t('identity:passkeys.empty')}
          </Typography>
        )}
        {passkeys.map((passkey, index) => (
          <Box key={passkey.id} data-testid="passkey-row">
            {index > 0 && <Divider />}
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', py: 1.5 }}>
              <KeyIcon color="action" />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ fontWeight: 600 }} noWrap data-testid="passkey-name">
                    {passkey.name}
                  </Typography>
                  {passkey.backed_up && <Chip size="small" variant="outlined" label={t('identity:passkeys.synced')} />}
                </Stack>
                <Typography variant="body2" color="text.secondary" noWrap data-testid="passkey-details">
                  {t('identity:passkeys.details', {
                    created: formatTimestamp(passkey.created_time),
                    lastUsed: passkey.last_used_time ? formatTimestamp(passkey.last_used_time) : t('identity:passkeys.neverUsed'),
                  })}
                </Typography>
              </Box>
              <RowIconAction title={t('identity:passkeys.rename')} icon={EditOutlinedIcon} onClick={() => setRenaming(passkey)} testId="passkey-rename" />
              <RowIconAction title={t('identity:passkeys.delete')} icon={DeleteOutlinedIcon} color="error" onClick={() => setDeleting(passkey)} testId="passkey-delete" />
            </Stack>
          </Box>
        ))}
      </CardContent>
      <RenamePasskeyDialog passkey={renaming} onClose={() => setRenaming(null)} onRename={rename} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('identity:passkeys.delete')}
        message={t('identity:passkeys.deleteConfirm', { name: deleting?.name ?? '' })}
        danger
        onConfirm={() => void remove()}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}
