import { useTranslation } from 'react-i18next';
import { FormJsonField } from '../../../components/form/FormJsonField';
import { FormNumberField } from '../../../components/form/FormNumberField';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';

/** The rate-limit tab: per-user model request limits per period, with per-group overrides. */
export default function RateLimitSettings() {
  const { t } = useTranslation();
  const section = useOptionSection({
    fields: {
      ModelRequestRateLimitEnabled: 'bool',
      ModelRequestRateLimitDurationMinutes: 'text',
      ModelRequestRateLimitCount: 'text',
      ModelRequestRateLimitSuccessCount: 'text',
      ModelRequestRateLimitGroup: 'json',
    },
  });
  const { control } = section;
  const label = (key: string) => t(`settings:ratelimit.${key}`);
  return (
    <SettingsSection title={label('title')} description={label('description')} section={section} testId="settings-ratelimit">
      <FormSwitch name={fieldPath('ModelRequestRateLimitEnabled')} control={control} label={label('ModelRequestRateLimitEnabled')} />
      <FieldGrid>
        <FormNumberField name={fieldPath('ModelRequestRateLimitDurationMinutes')} control={control} label={label('ModelRequestRateLimitDurationMinutes')} helperText={label('ModelRequestRateLimitDurationMinutesHelp')} min={0} integer />
        {/* The stored default is -1; 0 and -1 both mean unlimited, so -1 is accepted here too. */}
        <FormNumberField name={fieldPath('ModelRequestRateLimitCount')} control={control} label={label('ModelRequestRateLimitCount')} helperText={label('ModelRequestRateLimitCountHelp')} min={-1} integer />
        <FormNumberField name={fieldPath('ModelRequestRateLimitSuccessCount')} control={control} label={label('ModelRequestRateLimitSuccessCount')} helperText={label('ModelRequestRateLimitSuccessCountHelp')} min={1} integer />
      </FieldGrid>
      <FormJsonField name={fieldPath('ModelRequestRateLimitGroup')} control={control} label={label('ModelRequestRateLimitGroup')} helperText={label('ModelRequestRateLimitGroupHelp')} />
    </SettingsSection>
  );
}
