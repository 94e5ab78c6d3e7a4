import { useState } from 'react';
import { Button } from '@mui/material';
import TravelExploreIcon from '@mui/icons-material/TravelExplore';
import { useTranslation } from 'react-i18next';
import { FormSecretField } from '../../../components/form/FormSecretField';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { toast } from '../../../lib/toast';
import type { OptionKey } from '../api';
import { useOptions } from '../OptionsProvider';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection, type OptionFieldKind } from '../useOptionSection';
import { fetchOidcEndpoints } from './api';

/** One field of a sign-in provider's card, in the order shown. */
interface ProviderField {
  key: OptionKey;
  kind: OptionFieldKind;
  /** i18n key of the label. */
  label: string;
  placeholder?: string;
}

interface ProviderSectionProps {
  /** i18n prefix under settingsSystem: (title, description). */
  id: 'github' | 'linuxdo' | 'wechat' | 'telegram' | 'turnstile';
  fields: ProviderField[];
  /** The path the provider redirects back to, shown with the server address so it can be registered there. */
  callbackPath?: string;
}

/** A sign-in provider's card: its switch first, then its fields; secrets are write-only. */
function ProviderSection({ id, fields, callbackPath }: ProviderSectionProps) {
  const { t } = useTranslation();
  const { values } = useOptions();
  const section = useOptionSection({ fields: Object.fromEntries(fields.map((field) => [field.key, field.kind])) });
  const { control } = section;
  const serverAddress = values.ServerAddress || '{ServerAddress}';
  return (
    <SettingsSection
      title={t(`settingsSystem:${id}.title`)}
      description={t(`settingsSystem:${id}.description`, { callback: callbackPath ? `${serverAddress}${callbackPath}` : '' })}
      section={section}
      testId={`system-${id}`}
    >
      {fields
        .filter((field) => field.kind === 'bool')
        .map((field) => (
          <FormSwitch key={field.key} control={control} name={fieldPath(field.key)} label={t(field.label)} />
        ))}
      <FieldGrid>
        {fields
          .filter((field) => field.kind !== 'bool')
          .map((field) =>
            field.kind === 'secret' ? (
              <FormSecretField key={field.key} control={control} name={fieldPath(field.key)} label={t(field.label)} isSet={section.isSet(field.key)} />
            ) : (
              <FormTextField key={field.key} control={control} name={fieldPath(field.key)} label={t(field.label)} placeholder={field.placeholder} />
            ),
          )}
      </FieldGrid>
    </SettingsSection>
  );
}

export function GitHubSection() {
  return (
    <ProviderSection
      id="github"
      callbackPath="/oauth/github"
      fields={[
        { key: 'GitHubOAuthEnabled', kind: 'bool', label: 'settingsSystem:github.enabled' },
        { key: 'GitHubClientId', kind: 'text', label: 'settingsSystem:fields.clientId' },
        { key: 'GitHubClientSecret', kind: 'secret', label: 'settingsSystem:fields.clientSecret' },
      ]}
    />
  );
}

export function LinuxDoSection() {
  return (
    <ProviderSection
      id="linuxdo"
      callbackPath="/oauth/linuxdo"
      fields={[
        { key: 'LinuxDOOAuthEnabled', kind: 'bool', label: 'settingsSystem:linuxdo.enabled' },
        { key: 'LinuxDOClientId', kind: 'text', label: 'settingsSystem:fields.clientId' },
        { key: 'LinuxDOClientSecret', kind: 'secret', label: 'settingsSystem:fields.clientSecret' },
      ]}
    />
  );
}

export function WeChatSection() {
  return (
    <ProviderSection
      id="wechat"
      fields={[
        { key: 'WeChatAuthEnabled', kind: 'bool', label: 'settingsSystem:wechat.enabled' },
        { key: 'WeChatServerAddress', kind: 'text', label: 'settingsSystem:wechat.serverAddress', placeholder: 'https://wechat.example.com' },
        { key: 'WeChatServerToken', kind: 'secret', label: 'settingsSystem:wechat.serverToken' },
        { key: 'WeChatAccountQRCodeImageURL', kind: 'text', label: 'settingsSystem:wechat.qrCode', placeholder: 'https://example.com/qrcode.png' },
      ]}
    />
  );
}

export function TelegramSection() {
  return (
    <ProviderSection
      id="telegram"
      fields={[
        { key: 'TelegramOAuthEnabled', kind: 'bool', label: 'settingsSystem:telegram.enabled' },
        { key: 'TelegramBotToken', kind: 'secret', label: 'settingsSystem:telegram.botToken' },
        { key: 'TelegramBotName', kind: 'text', label: 'settingsSystem:telegram.botName' },
      ]}
    />
  );
}

export function TurnstileSection() {
  return (
    <ProviderSection
      id="turnstile"
      fields={[
        { key: 'TurnstileCheckEnabled', kind: 'bool', label: 'settingsSystem:turnstile.enabled' },
        { key: 'TurnstileSiteKey', kind: 'text', label: 'settingsSystem:turnstile.siteKey' },
        { key: 'TurnstileSecretKey', kind: 'secret', label: 'settingsSystem:turnstile.secretKey' },
      ]}
    />
  );
}

const OIDC_FIELDS = {
  'oidc.enabled': 'bool',
  'oidc.client_id': 'text',
  'oidc.client_secret': 'secret',
  'oidc.well_known': 'text',
  'oidc.authorization_endpoint': 'text',
  'oidc.token_endpoint': 'text',
  'oidc.user_info_endpoint': 'text',
} as const satisfies Partial<Record<OptionKey, OptionFieldKind>>;

const HTTP_URL = /^https?:\/\//i;

/** OpenID Connect: client credentials, and the three endpoints, filled from the provider's discovery document. */
export function OidcSection() {
  const { t } = useTranslation();
  const { values } = useOptions();
  const section = useOptionSection({ fields: OIDC_FIELDS });
  const { control, form } = section;
  const [discovering, setDiscovering] = useState(false);

  async function discover() {
    const wellKnown = String(form.getValues(fieldPath('oidc.well_known')) ?? '').trim();
    if (!HTTP_URL.test(wellKnown)) {
      form.setError(fieldPath('oidc.well_known'), { message: 'settingsSystem:errors.wellKnownScheme' });
      return;
    }
    setDiscovering(true);
    const endpoints = await fetchOidcEndpoints(wellKnown);
    setDiscovering(false);
    if (!endpoints) {
      toast.error(t('settingsSystem:errors.oidcDiscovery'));
      return;
    }
    form.setValue(fieldPath('oidc.authorization_endpoint'), endpoints.authorization_endpoint, { shouldDirty: true });
    form.setValue(fieldPath('oidc.token_endpoint'), endpoints.token_endpoint, { shouldDirty: true });
    form.setValue(fieldPath('oidc.user_info_endpoint'), endpoints.userinfo_endpoint, { shouldDirty: true });
    toast.success(t('settingsSystem:oidc.discovered'));
  }

  const text = (key: keyof typeof OIDC_FIELDS, label: string, placeholder?: string) => (
    <FormTextField control={control} name={fieldPath(key)} label={t(label)} placeholder={placeholder} />
  );

  return (
    <SettingsSection
      title={t('settingsSystem:oidc.title')}
      description={t('settingsSystem:oidc.description', { callback: `${values.ServerAddress || '{ServerAddress}'}/oauth/oidc` })}
      section={section}
      testId="system-oidc"
      actions={
        <Button variant="outlined" startIcon={<TravelExploreIcon />} disabled={discovering} onClick={() => void discover()} data-testid="oidc-discover">
          {t('settingsSystem:oidc.discover')}
        </Button>
      }
    >
      <FormSwitch control={control} name={fieldPath('oidc.enabled')} label={t('settingsSystem:oidc.enabled')} />
      <FieldGrid columns={2}>
        {text('oidc.client_id', 'settingsSystem:fields.clientId')}
        <FormSecretField control={control} name={fieldPath('oidc.client_secret')} label={t('settingsSystem:fields.clientSecret')} isSet={section.isSet('oidc.client_secret')} />
      </FieldGrid>
      <FormTextField
        control={control}
        name={fieldPath('oidc.well_known')}
        label={t('settingsSystem:oidc.wellKnown')}
        placeholder="https://idp.example.com/.well-known/openid-configuration"
        helperText={t('settingsSystem:oidc.wellKnownHint')}
        rules={{ validate: (raw: unknown) => String(raw ?? '').trim() === '' || HTTP_URL.test(String(raw).trim()) || 'settingsSystem:errors.wellKnownScheme' }}
        fullWidth
      />
      <FieldGrid>
        {text('oidc.authorization_endpoint', 'settingsSystem:oidc.authorizationEndpoint')}
        {text('oidc.token_endpoint', 'settingsSystem:oidc.tokenEndpoint')}
        {text('oidc.user_info_endpoint', 'settingsSystem:oidc.userInfoEndpoint')}
      </FieldGrid>
    </SettingsSection>
  );
}
