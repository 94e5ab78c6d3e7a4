import { useState } from 'react';
import { Button, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { toast } from '../../../lib/toast';
import { settingsApi } from '../api';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';

/** yyyy-mm-dd of the same day one month back, in local time: the spec's default clearing date. */
function oneMonthAgo(): string {
  const date = new Date();
  date.setMonth(date.getMonth() - 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Deletes every log row older than the start of the chosen day, after a confirmation. */
function LogClearing() {
  const { t } = useTranslation();
  const { control, handleSubmit, getValues } = useForm<{ date: string }>({ defaultValues: { date: oneMonthAgo() } });
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);

  async function clear() {
    setConfirming(false);
    setClearing(true);
    const targetTimestamp = Math.floor(new Date(`${getValues('date')}T00:00:00`).getTime() / 1000);
    const result = await settingsApi.clearLogsBefore(targetTimestamp);
    setClearing(false);
    if (result.ok) toast.success(t('settings:operation.sensitive.logsCleared', { count: result.data }));
  }

  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle2">{t('settings:operation.sensitive.clearTitle')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <FormTextField
          name="date"
          control={control}
          type="date"
          label={t('settings:operation.sensitive.clearDate')}
          rules={{ required: 'settings:operation.sensitive.chooseDate' }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'log-clear-date' } }}
          fullWidth={false}
          sx={{ width: { xs: '100%', sm: 240 } }}
        />
        <Button
          variant="outlined"
          color="error"
          disabled={clearing}
          onClick={() => void handleSubmit(() => setConfirming(true), () => toast.error(t('settings:operation.sensitive.chooseDate')))()}
          sx={{ mt: { sm: 1 }, whiteSpace: 'nowrap', alignSelf: { xs: 'flex-start', sm: 'auto' } }}
        >
          {t('settings:operation.sensitive.clearButton')}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirming}
        danger
        title={t('settings:operation.sensitive.clearConfirmTitle')}
        message={t('settings:operation.sensitive.clearConfirm', { date: getValues('date') })}
        confirmLabel={t('settings:operation.sensitive.clearButton')}
        onConfirm={() => void clear()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}

/** Operation §4: the sensitive-word check, logging of consumption, and clearing old logs. */
export function SensitiveAndLogsSection() {
  const { t } = useTranslation();
  const section = useOptionSection({
    fields: { CheckSensitiveEnabled: 'bool', CheckSensitiveOnPromptEnabled: 'bool', SensitiveWords: 'text', LogConsumeEnabled: 'bool' },
  });
  const { control } = section;
  const label = (key: string) => t(`settings:operation.sensitive.${key}`);
  return (
    <SettingsSection title={label('title')} section={section} testId="settings-sensitive" footer={<LogClearing />}>
      <FieldGrid>
        <FormSwitch name={fieldPath('CheckSensitiveEnabled')} control={control} label={label('CheckSensitiveEnabled')} />
        <FormSwitch name={fieldPath('CheckSensitiveOnPromptEnabled')} control={control} label={label('CheckSensitiveOnPromptEnabled')} />
        <FormSwitch name={fieldPath('LogConsumeEnabled')} control={control} label={label('LogConsumeEnabled')} helperText={label('LogConsumeEnabledHelp')} />
      </FieldGrid>
      <FormTextField name={fieldPath('SensitiveWords')} control={control} label={label('SensitiveWords')} helperText={label('SensitiveWordsHelp')} multiline minRows={4} maxRows={16} />
    </SettingsSection>
  );
}
