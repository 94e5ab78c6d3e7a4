import { useTranslation } from 'react-i18next';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, fieldsOfKind, useOptionSection } from '../useOptionSection';

const SWITCHES = [
  'DrawingEnabled',
  'TaskEnabled',
  'MjNotifyEnabled',
  'MjAccountFilterEnabled',
  'MjForwardUrlEnabled',
  'MjModeClearEnabled',
  'MjActionCheckSuccessEnabled',
] as const;

/** Operation §2: Midjourney-style drawing switches (and the async task switch that gates the task log). */
export function DrawingSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: fieldsOfKind(SWITCHES, 'bool') });
  return (
    <SettingsSection title={t('settings:operation.drawing.title')} section={section} testId="settings-drawing">
      <FieldGrid>
        {SWITCHES.map((key) => (
          <FormSwitch
            key={key}
            name={fieldPath(key)}
            control={section.control}
            label={t(`settings:operation.drawing.${key}`)}
            helperText={t(`settings:operation.drawing.${key}Help`)}
          />
        ))}
      </FieldGrid>
    </SettingsSection>
  );
}
