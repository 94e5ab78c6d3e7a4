import { useTranslation } from 'react-i18next';
import { FormNumberField } from '../../../components/form/FormNumberField';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';

/** Operation §3: when channels are disabled and enabled again, how traffic avoids a slow or failing one before that, and when users are reminded of low quota. */
export function MonitoringSection() {
  const { t } = useTranslation();
  const section = useOptionSection({
    fields: {
      ChannelDisableThreshold: 'text',
      QuotaRemindThreshold: 'text',
      AutomaticDisableChannelEnabled: 'bool',
      AutomaticEnableChannelEnabled: 'bool',
      AutomaticDisableKeywords: 'text',
      ChannelAffinityTTLSeconds: 'text',
      ChannelHealthBalancingEnabled: 'bool',
      ChannelBreakerFailures: 'text',
      ChannelBreakerCooldownSeconds: 'text',
    },
  });
  const { control } = section;
  const label = (key: string) => t(`settings:operation.monitoring.${key}`);
  return (
    <SettingsSection title={label('title')} section={section} testId="settings-monitoring">
      <FieldGrid columns={2}>
        <FormNumberField name={fieldPath('ChannelDisableThreshold')} control={control} label={label('ChannelDisableThreshold')} helperText={label('ChannelDisableThresholdHelp')} min={0} />
        <FormNumberField name={fieldPath('QuotaRemindThreshold')} control={control} label={label('QuotaRemindThreshold')} helperText={label('QuotaRemindThresholdHelp')} min={0} integer />
        <FormSwitch name={fieldPath('AutomaticDisableChannelEnabled')} control={control} label={label('AutomaticDisableChannelEnabled')} helperText={label('AutomaticDisableChannelEnabledHelp')} />
        <FormSwitch name={fieldPath('AutomaticEnableChannelEnabled')} control={control} label={label('AutomaticEnableChannelEnabled')} helperText={label('AutomaticEnableChannelEnabledHelp')} />
      </FieldGrid>
      <FormTextField name={fieldPath('AutomaticDisableKeywords')} control={control} label={label('AutomaticDisableKeywords')} helperText={label('AutomaticDisableKeywordsHelp')} multiline minRows={4} maxRows={16} />
      <FieldGrid columns={2}>
        <FormSwitch name={fieldPath('ChannelHealthBalancingEnabled')} control={control} label={label('ChannelHealthBalancingEnabled')} helperText={label('ChannelHealthBalancingEnabledHelp')} />
        <FormNumberField name={fieldPath('ChannelAffinityTTLSeconds')} control={control} label={label('ChannelAffinityTTLSeconds')} helperText={label('ChannelAffinityTTLSecondsHelp')} min={0} integer />
        <FormNumberField name={fieldPath('ChannelBreakerFailures')} control={control} label={label('ChannelBreakerFailures')} helperText={label('ChannelBreakerFailuresHelp')} min={0} integer />
        <FormNumberField name={fieldPath('ChannelBreakerCooldownSeconds')} control={control} label={label('ChannelBreakerCooldownSeconds')} helperText={label('ChannelBreakerCooldownSecondsHelp')} min={1} integer />
      </FieldGrid>
    </SettingsSection>
  );
}
