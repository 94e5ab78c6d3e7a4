import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  Card,
  Chip,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Switch,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { GroupRatioChip } from '../../components/GroupRatioChip';
import { renderQuota } from '../../lib/quota';
import { toast } from '../../lib/toast';
import { personalApi, type GroupRatios, type SelfUser, type UserSetting } from './api';

const DEFAULT_THRESHOLD = 500000;
const THRESHOLD_PRESETS = [100000, 500000, 1000000, 5000000];

interface NotificationForm {
  notify_type: 'email' | 'webhook';
  quota_warning_threshold: string;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
  accept_unset_model_ratio_model: boolean;
}

function parseSetting(raw: string | undefined): Partial<UserSetting> {
  if (!raw) return {};
  try {
    return JSON.parse(raw) as Partial<UserSetting>;
  } catch {
    return {};
  }
}

function NotificationSettings({ user, onSaved }: { user: SelfUser; onSaved: () => void }) {
  const { t } = useTranslation();
  const setting = parseSetting(user.setting);
  const { control, handleSubmit, setValue, formState } = useForm<NotificationForm>({
    defaultValues: {
      notify_type: setting.notify_type ?? 'email',
      quota_warning_threshold: String(setting.quota_warning_threshold ?? DEFAULT_THRESHOLD),
      webhook_url: setting.webhook_url ?? '',
      webhook_secret: setting.webhook_secret ?? '',
      notification_email: setting.notification_email ?? '',
      accept_unset_model_ratio_model: setting.accept_unset_model_ratio_model ?? false,
    },
  });
  const notifyType = useWatch({ control, name: 'notify_type' });

  async function onSubmit(values: NotificationForm) {
    const result = await personalApi.updateSetting({
      notify_type: values.notify_type,
      quota_warning_threshold: Number(values.quota_warning_threshold),
      webhook_url: values.webhook_url.trim(),
      webhook_secret: values.webhook_secret,
      notification_email: values.notification_email.trim(),
      accept_unset_model_ratio_model: values.accept_unset_model_ratio_model,
    });
    if (result.ok) {
      toast.success(t('personal:notify.saved'));
      onSaved();
    }
  }

  return (
    <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)} sx={{ maxWidth: 560 }}>
      <Stack spacing={2.5}>
        <Box>
          <FormLabel sx={{ fontWeight: 600, color: 'text.primary' }}>{t('personal:notify.type')}</FormLabel>
          <Controller
            name="notify_type"
            control={control}
            render={({ field }) => (
              <RadioGroup row {...field}>
                <FormControlLabel value="email" control={<Radio />} label={t('personal:notify.email')} />
                <FormControlLabel value="webhook" control={<Radio />} label={t('personal:notify.webhook')} />
              </RadioGroup>
            )}
          />
        </Box>
        <Box>
          <FormTextField
            name="quota_warning_threshold"
            control={control}
            rules={{ validate: (value) => (Number.isFinite(Number(value)) && Number(value) >= 0) || 'personal:validation.thresholdNumber' }}
            label={t('personal:notify.threshold')}
            helperText={t('personal:notify.thresholdHint')}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
            {THRESHOLD_PRESETS.map((preset) => (
              <Chip
                key={preset}
                size="small"
                variant="outlined"
                label={`${preset.toLocaleString()} (${renderQuota(preset)})`}
                onClick={() => setValue('quota_warning_threshold', String(preset), { shouldDirty: true })}
              />
            ))}
          </Stack>
        </Box>
        {notifyType === 'email' ? (
          <FormTextField
            name="notification_email"
            control={control}
            label={t('personal:notify.notificationEmail')}
            helperText={t('personal:notify.notificationEmailHint')}
            type="email"
          />
        ) : (
          <>
            <FormTextField
              name="webhook_url"
              control={control}
              rules={{
                required: 'personal:validation.webhookRequired',
                validate: (value) => (typeof value === 'string' && /^https:\/\/\S+$/i.test(value.trim())) || 'personal:validation.webhookHttps',
              }}
              label={t('personal:notify.webhookUrl')}
              placeholder="https://example.com/webhook"
              slotProps={{ htmlInput: { 'data-testid': 'webhook-url' } }}
            />
            <FormTextField
              name="webhook_secret"
              control={control}
              label={t('personal:notify.webhookSecret')}
              helperText={t('personal:notify.webhookSecretHint')}
              type="password"
              autoComplete="off"
            />
          </>
        )}
        <Controller
          name="accept_unset_model_ratio_model"
          control={control}
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} />}
              label={
                <Box>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {t('personal:notify.acceptUnset')}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {t('personal:notify.acceptUnsetHint')}
                  </Typography>
                </Box>
              }
            />
          )}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting} data-testid="save-notify">
            {t('common:actions.save')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

function GroupRatioTable() {
  const { t } = useTranslation();
  const [groups, setGroups] = useState<GroupRatios | null>(null);
  useEffect(() => {
    void personalApi.groups().then((result) => setGroups(result.ok ? (result.data ?? {}) : {}));
  }, []);
  const entries = Object.entries(groups ?? {});
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('personal:price.hint')}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t('personal:price.group')}</TableCell>
            <TableCell>{t('personal:price.description')}</TableCell>
            <TableCell align="right">{t('personal:price.ratio')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map(([name, info]) => (
            <TableRow key={name}>
              <TableCell>
                <Chip size="small" label={name} />
              </TableCell>
              <TableCell>{info.desc}</TableCell>
              <TableCell align="right">
                <GroupRatioChip ratio={info.ratio} testId={`personal-group-ratio-${name}`} />
              </TableCell>
            </TableRow>
          ))}
          {groups && entries.length === 0 && (
            <TableRow>
              <TableCell colSpan={3} align="center" sx={{ color: 'text.secondary' }}>
                {t('common:empty')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Tabs for notification settings and the group ratio (price) display. */
export function SettingsTabs({ user, onSaved }: { user: SelfUser; onSaved: () => void }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'notify' | 'price'>('notify');
  return (
    <Card>
      <Tabs value={tab} onChange={(_, value) => setTab(value)} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="notify" label={t('personal:notify.tab')} data-testid="tab-notify" />
        <Tab value="price" label={t('personal:price.tab')} data-testid="tab-price" />
      </Tabs>
      <Box sx={{ p: { xs: 2, sm: 3 } }}>
        {tab === 'notify' ? <NotificationSettings user={user} onSaved={onSaved} /> : <GroupRatioTable />}
      </Box>
    </Card>
  );
}
