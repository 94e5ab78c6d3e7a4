import { useTranslation } from 'react-i18next';
import { FormJsonField } from '../../../components/form/FormJsonField';
import { SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';

/** Operation §6: the chat links offered beside each token and in the sidebar (a JSON list). */
export function ChatsSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: { Chats: 'json' } });
  return (
    <SettingsSection title={t('settings:operation.chats.title')} section={section} testId="settings-chats">
      <FormJsonField name={fieldPath('Chats')} control={section.control} label={t('settings:operation.chats.Chats')} helperText={t('settings:operation.chats.ChatsHelp')} minRows={6} />
    </SettingsSection>
  );
}
