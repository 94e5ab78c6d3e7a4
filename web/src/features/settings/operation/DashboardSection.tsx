import { useTranslation } from 'react-i18next';
import { FormNumberField } from '../../../components/form/FormNumberField';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';

const GRANULARITIES = ['hour', 'day', 'week'] as const;

/** Operation §5: the data dashboard's collection and its default time granularity. */
export function DashboardSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: { DataExportEnabled: 'bool', DataExportInterval: 'text', DataExportDefaultTime: 'text' } });
  const { control } = section;
  const label = (key: string) => t(`settings:operation.dashboard.${key}`);
  return (
    <SettingsSection title={label('title')} section={section} testId="settings-dashboard">
      <FieldGrid>
        <FormSwitch name={fieldPath('DataExportEnabled')} control={control} label={label('DataExportEnabled')} helperText={label('DataExportEnabledHelp')} />
        <FormNumberField name={fieldPath('DataExportInterval')} control={control} label={label('DataExportInterval')} helperText={label('DataExportIntervalHelp')} min={1} integer />
        <FormSelect
          name={fieldPath('DataExportDefaultTime')}
          control={control}
          label={label('DataExportDefaultTime')}
          choices={GRANULARITIES.map((value) => ({ value, label: label(`granularity.${value}`) }))}
        />
      </FieldGrid>
    </SettingsSection>
  );
}
