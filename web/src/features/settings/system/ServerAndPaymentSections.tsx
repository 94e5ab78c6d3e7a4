import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { FormJsonField } from '../../../components/form/FormJsonField';
import { FormNumberField } from '../../../components/form/FormNumberField';
import { FormSecretField } from '../../../components/form/FormSecretField';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { useOptions } from '../OptionsProvider';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection, type OptionSectionConfig } from '../useOptionSection';

const SERVER_FIELDS: OptionSectionConfig['fields'] = {
  ServerAddress: 'text',
  WorkerUrl: 'text',
  WorkerValidKey: 'secret',
  'fetch_setting.allow_private_ip': 'bool',
};

/** The gateway's public address (callbacks, links in mail) and the worker that makes non-relay fetches. */
export function ServerSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: SERVER_FIELDS });
  const { control } = section;
  return (
    <SettingsSection title={t('settingsSystem:server.title')} description={t('settingsSystem:server.description')} section={section} testId="system-server">
      <FormTextField control={control} name={fieldPath('ServerAddress')} label={t('settingsSystem:server.address')} placeholder="https://gateway.example.com" helperText={t('settingsSystem:server.addressHint')} fullWidth />
      <FieldGrid columns={2}>
        <FormTextField control={control} name={fieldPath('WorkerUrl')} label={t('settingsSystem:server.workerUrl')} placeholder="https://worker.example.workers.dev" helperText={t('settingsSystem:server.workerUrlHint')} />
        <FormSecretField control={control} name={fieldPath('WorkerValidKey')} label={t('settingsSystem:server.workerKey')} isSet={section.isSet('WorkerValidKey')} />
      </FieldGrid>
      <FormSwitch control={control} name={fieldPath('fetch_setting.allow_private_ip')} label={t('settingsSystem:server.allowPrivate')} helperText={t('settingsSystem:server.allowPrivateHint')} />
    </SettingsSection>
  );
}

/** How long the administrators' audit log keeps its rows (root's record of what admins changed). */
export function AuditLogSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: { AuditLogRetentionDays: 'text' } });
  return (
    <SettingsSection title={t('settingsSystem:audit.title')} description={t('settingsSystem:audit.description')} section={section} testId="system-audit">
      <FormNumberField
        control={section.control}
        name={fieldPath('AuditLogRetentionDays')}
        label={t('settingsSystem:audit.retentionDays')}
        helperText={t('settingsSystem:audit.retentionDaysHint')}
        min={0}
        max={36_500}
        integer
      />
    </SettingsSection>
  );
}

const EPAY_FIELDS: OptionSectionConfig['fields'] = {
  PayAddress: 'text',
  EpayId: 'text',
  EpayKey: 'secret',
  CustomCallbackAddress: 'text',
  Price: 'text',
  MinTopUp: 'text',
  TopupGroupRatio: 'json',
  PayMethods: 'json',
};

const STRIPE_FIELDS: OptionSectionConfig['fields'] = {
  StripeApiSecret: 'secret',
  StripeWebhookSecret: 'secret',
  StripeUnitPrice: 'text',
};

/** Payment providers call back to the server address, so nothing about payment saves before it is set. */
function useServerAddressFirst() {
  const { values } = useOptions();
  const serverAddress = values.ServerAddress ?? '';
  return { serverAddress, beforeSave: () => (serverAddress ? undefined : 'settingsSystem:errors.serverAddressFirst') };
}

/** Epay: gateway address, merchant, key, price per unit, minimum top-up, group ratios and pay methods. */
export function EpaySection() {
  const { t } = useTranslation();
  const { serverAddress, beforeSave } = useServerAddressFirst();
  const section = useOptionSection({ fields: EPAY_FIELDS, beforeSave });
  const { control } = section;
  return (
    <SettingsSection title={t('settingsSystem:payment.title')} description={t('settingsSystem:payment.description')} section={section} testId="system-payment">
      {!serverAddress && <Alert severity="warning">{t('settingsSystem:errors.serverAddressFirst')}</Alert>}
      <FieldGrid columns={2}>
        <FormTextField control={control} name={fieldPath('PayAddress')} label={t('settingsSystem:payment.address')} placeholder="https://pay.example.com" />
        <FormTextField control={control} name={fieldPath('EpayId')} label={t('settingsSystem:payment.merchantId')} />
        <FormSecretField control={control} name={fieldPath('EpayKey')} label={t('settingsSystem:payment.key')} isSet={section.isSet('EpayKey')} />
        <FormTextField
          control={control}
          name={fieldPath('CustomCallbackAddress')}
          label={t('settingsSystem:payment.callback')}
          helperText={t('settingsSystem:payment.callbackHint', { address: serverAddress || '-' })}
        />
        <FormNumberField control={control} name={fieldPath('Price')} label={t('settingsSystem:payment.price')} helperText={t('settingsSystem:payment.priceHint')} min={0} max={1_000_000} />
        <FormNumberField control={control} name={fieldPath('MinTopUp')} label={t('settingsSystem:payment.minTopUp')} min={1} integer />
      </FieldGrid>
      <FormJsonField control={control} name={fieldPath('TopupGroupRatio')} label={t('settingsSystem:payment.groupRatio')} helperText={t('settingsSystem:payment.groupRatioHint')} fullWidth />
      <FormJsonField control={control} name={fieldPath('PayMethods')} label={t('settingsSystem:payment.methods')} helperText={t('settingsSystem:payment.methodsHint')} fullWidth />
    </SettingsSection>
  );
}

/** Stripe Checkout: API secret, webhook signing secret and the USD price of one unit. */
export function StripeSection() {
  const { t } = useTranslation();
  const { serverAddress, beforeSave } = useServerAddressFirst();
  const section = useOptionSection({ fields: STRIPE_FIELDS, beforeSave });
  const { control } = section;
  return (
    <SettingsSection
      title={t('settingsSystem:stripe.title')}
      description={t('settingsSystem:stripe.description', { webhook: `${serverAddress || '{ServerAddress}'}/api/user/stripe/webhook` })}
      section={section}
      testId="system-stripe"
    >
      <FieldGrid>
        <FormSecretField control={control} name={fieldPath('StripeApiSecret')} label={t('settingsSystem:stripe.apiSecret')} isSet={section.isSet('StripeApiSecret')} />
        <FormSecretField control={control} name={fieldPath('StripeWebhookSecret')} label={t('settingsSystem:stripe.webhookSecret')} isSet={section.isSet('StripeWebhookSecret')} />
        <FormNumberField control={control} name={fieldPath('StripeUnitPrice')} label={t('settingsSystem:stripe.unitPrice')} min={0.01} max={1_000_000} />
      </FieldGrid>
    </SettingsSection>
  );
}
