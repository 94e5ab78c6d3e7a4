import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Divider, Stack, TextField, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useCopy } from '../../../components/CopyProvider';
import { FormTextField } from '../../../components/form/FormTextField';
import { formatTimestamp } from '../../../lib/time';
import { toast } from '../../../lib/toast';
import { useOptions } from '../OptionsProvider';
import { SettingsSection } from '../SettingsSection';
import { scimApi, type ScimTokenCreatedView, type ScimTokenView } from './scimApi';

/**
 * SCIM provisioning (root): the endpoint an identity provider is given, and its bearer tokens.
 * A new token is shown here once; the server keeps only its hash.
 */
export function ScimSection() {
  const { t } = useTranslation();
  const copy = useCopy();
  const { values } = useOptions();
  const endpoint = `${(values.ServerAddress || window.location.origin).replace(/\/+$/, '')}/scim/v2`;
  const [tokens, setTokens] = useState<ScimTokenView[]>([]);
  const [created, setCreated] = useState<ScimTokenCreatedView | null>(null);
  const [revoking, setRevoking] = useState<ScimTokenView | null>(null);
  const { control, handleSubmit, reset, formState } = useForm<{ name: string }>({ defaultValues: { name: '' } });

  const load = useCallback(async () => {
    const result = await scimApi.tokens();
    if (result.ok) setTokens(result.data);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const create = handleSubmit(async ({ name }) => {
    const result = await scimApi.createToken(name.trim());
    if (!result.ok) return;
    setCreated(result.data);
    reset({ name: '' });
    await load();
  });

  async function revoke(token: ScimTokenView) {
    setRevoking(null);
    const result = await scimApi.revokeToken(token.id);
    if (result.ok) toast.success(result.message);
    await load();
  }

  return (
    <SettingsSection title={t('settingsSystem:scim.title')} description={t('settingsSystem:scim.description')} testId="system-scim">
      <TextField
        label={t('settingsSystem:scim.endpoint')}
        value={endpoint}
        helperText={t('settingsSystem:scim.endpointHint')}
        slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace' } } }}
        data-testid="scim-endpoint"
      />
      {created && (
        <Stack spacing={1} data-testid="scim-new-token">
          <Alert severity="warning">{t('settingsSystem:scim.showOnce', { name: created.name })}</Alert>
          <Box sx={{ p: 1.5, fontFamily: 'monospace', bgcolor: 'action.hover', borderRadius: 1, wordBreak: 'break-all' }} data-testid="scim-token-value">
            {created.token}
          </Box>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={() => void copy(created.token, t('settingsSystem:scim.copied'))}>{t('settingsSystem:scim.copy')}</Button>
            <Button variant="contained" onClick={() => setCreated(null)} data-testid="scim-token-saved">
              {t('settingsSystem:scim.saved')}
            </Button>
          </Stack>
        </Stack>
      )}
      <Box>
        {tokens.length === 0 && (
          <Typography variant="body2" color="text.secondary" data-testid="scim-no-tokens">
            {t('settingsSystem:scim.none')}
          </Typography>
        )}
        {tokens.map((token, index) => (
          <Box key={token.id} data-testid="scim-token-row">
            {index > 0 && <Divider />}
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', py: 1 }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }} noWrap>
                  {token.name}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('settingsSystem:scim.details', {
                    created: formatTimestamp(token.created_time),
                    lastUsed: token.last_used_time ? formatTimestamp(token.last_used_time) : t('settingsSystem:scim.neverUsed'),
                  })}
                </Typography>
              </Box>
              <Button size="small" color="error" onClick={() => setRevoking(token)} data-testid="scim-revoke">
                {t('settingsSystem:scim.revoke')}
              </Button>
            </Stack>
          </Box>
        ))}
      </Box>
      <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }} onSubmit={(event) => void create(event)} noValidate>
        <FormTextField
          control={control}
          name="name"
          label={t('settingsSystem:scim.name')}
          placeholder={t('settingsSystem:scim.namePlaceholder')}
          rules={{ validate: (value: string) => (value.trim() !== '' && value.trim().length <= 64) || 'settingsSystem:scim.nameRule' }}
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { 'data-testid': 'scim-token-name' } }}
        />
        <Button type="submit" variant="contained" disabled={formState.isSubmitting} sx={{ mt: { sm: 1 } }} data-testid="scim-create">
          {t('settingsSystem:scim.create')}
        </Button>
      </Stack>
      <ConfirmDialog
        open={revoking !== null}
        title={t('settingsSystem:scim.revokeTitle')}
        message={t('settingsSystem:scim.revokeMessage', { name: revoking?.name ?? '' })}
        confirmLabel={t('settingsSystem:scim.revoke')}
        danger
        onClose={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
      />
    </SettingsSection>
  );
}
