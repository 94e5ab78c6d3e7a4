import { useTranslation } from 'react-i18next';
import { FormNumberField } from '../../../components/form/FormNumberField';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, fieldsOfKind, useOptionSection } from '../useOptionSection';

const SWITCHES = ['DisplayInCurrencyEnabled', 'DisplayTokenStatEnabled', 'DefaultCollapseSidebar', 'DemoSiteEnabled', 'SelfUseModeEnabled'] as const;
/** Quota amounts: whole numbers from 0 (the server holds the upper bounds). */
const QUOTAS = ['QuotaForNewUser', 'PreConsumedQuota', 'QuotaForInviter', 'QuotaForInvitee', 'QuotaRemindThreshold'] as const;

/** Operation §1: links, quota unit, retries, display switches and quota grants. */
export function GeneralSection() {
  const { t } = useTranslation();
  const section = useOptionSection({
    fields: {
      TopUpLink: 'text',
      'general_setting.docs_link': 'text',
      QuotaPerUnit: 'text',
      RetryTimes: 'text',
      USDExchangeRate: 'text',
      StreamCacheQueueLength: 'text',
      BudgetTimeZone: 'text',
      ...fieldsOfKind(SWITCHES, 'bool'),
      ...fieldsOfKind(QUOTAS, 'text'),
    },
  });
  const { control } = section;
  const label = (key: string) => t(`settings:operation.general.${key}`);
  return (
    <SettingsSection title={t('settings:operation.general.title')} section={section} testId="settings-general">
      <FieldGrid>
        <FormTextField name={fieldPath('TopUpLink')} control={control} label={label('TopUpLink')} placeholder="https://" />
        <FormTextField name={fieldPath('general_setting.docs_link')} control={control} label={label('docsLink')} placeholder="https://" />
        <FormNumberField name={fieldPath('QuotaPerUnit')} control={control} label={label('QuotaPerUnit')} helperText={label('QuotaPerUnitHelp')} min={1} />
        <FormNumberField name={fieldPath('RetryTimes')} control={control} label={label('RetryTimes')} min={0} max={10} integer />
        <FormNumberField name={fieldPath('USDExchangeRate')} control={control} label={label('USDExchangeRate')} helperText={label('USDExchangeRateHelp')} min={0} />
        <FormNumberField name={fieldPath('StreamCacheQueueLength')} control={control} label={label('StreamCacheQueueLength')} helperText={label('StreamCacheQueueLengthHelp')} min={0} integer />
        <FormTextField name={fieldPath('BudgetTimeZone')} control={control} label={label('BudgetTimeZone')} helperText={label('BudgetTimeZoneHelp')} placeholder="UTC" />
      </FieldGrid>
      <FieldGrid>
        {QUOTAS.map((key) => (
          <FormNumberField key={key} name={fieldPath(key)} control={control} label={label(key)} helperText={label(`${key}Help`)} min={0} integer />
        ))}
      </FieldGrid>
      <FieldGrid>
        {SWITCHES.map((key) => (
          <FormSwitch key={key} name={fieldPath(key)} control={control} label={label(key)} />
        ))}
      </FieldGrid>
    </SettingsSection>
  );
}
