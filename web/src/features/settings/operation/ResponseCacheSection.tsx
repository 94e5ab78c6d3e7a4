import { useTranslation } from 'react-i18next';
import { FormNumberField } from '../../../components/form/FormNumberField';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';

/** The exact response cache: which groups' calls it answers (tokens opt in on their own), how long, how large, and what a hit costs. */
export function ResponseCacheSection() {
  const { t } = useTranslation();
  const section = useOptionSection({
    fields: {
      ResponseCacheGroups: 'text',
      ResponseCacheTTLSeconds: 'text',
      ResponseCacheMaxMB: 'text',
      ResponseCacheHitRatio: 'text',
      ResponseCacheSharedAcrossUsers: 'bool',
    },
  });
  const { control } = section;
  const label = (key: string) => t(`settings:operation.responseCache.${key}`);
  return (
    <SettingsSection title={label('title')} section={section} testId="settings-response-cache">
      <FormTextField name={fieldPath('ResponseCacheGroups')} control={control} label={label('ResponseCacheGroups')} helperText={label('ResponseCacheGroupsHelp')} />
      <FieldGrid columns={2}>
        <FormNumberField name={fieldPath('ResponseCacheTTLSeconds')} control={control} label={label('ResponseCacheTTLSeconds')} helperText={label('ResponseCacheTTLSecondsHelp')} min={1} max={2_592_000} integer />
        <FormNumberField name={fieldPath('ResponseCacheMaxMB')} control={control} label={label('ResponseCacheMaxMB')} helperText={label('ResponseCacheMaxMBHelp')} min={1} max={16_384} integer />
        <FormNumberField name={fieldPath('ResponseCacheHitRatio')} control={control} label={label('ResponseCacheHitRatio')} helperText={label('ResponseCacheHitRatioHelp')} min={0} max={1} />
        <FormSwitch name={fieldPath('ResponseCacheSharedAcrossUsers')} control={control} label={label('ResponseCacheSharedAcrossUsers')} helperText={label('ResponseCacheSharedAcrossUsersHelp')} />
      </FieldGrid>
    </SettingsSection>
  );
}
