import { useTranslation } from 'react-i18next';
import { FormJsonField } from '../../../components/form/FormJsonField';
import { FormSwitch } from '../../../components/form/FormSwitch';
import type { OptionKey } from '../api';
import { SettingsSection } from '../SettingsSection';
import { fieldPath, fieldsOfKind, useOptionSection } from '../useOptionSection';

const JSON_KEYS = ['GroupRatio', 'UserUsableGroups', 'GroupGroupRatio', 'AutoGroups'] as const satisfies readonly OptionKey[];

/** Operation §7: group price multipliers, which groups users may pick, and the auto group's order. */
export function GroupRatioSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: { ...fieldsOfKind(JSON_KEYS, 'json'), DefaultUseAutoGroup: 'bool' } });
  const label = (key: string) => t(`settings:operation.groups.${key}`);
  return (
    <SettingsSection title={label('title')} section={section} testId="settings-groups">
      {JSON_KEYS.map((key) => (
        <FormJsonField key={key} name={fieldPath(key)} control={section.control} label={label(key)} helperText={label(`${key}Help`)} />
      ))}
      <FormSwitch name={fieldPath('DefaultUseAutoGroup')} control={section.control} label={label('DefaultUseAutoGroup')} helperText={label('DefaultUseAutoGroupHelp')} />
    </SettingsSection>
  );
}
