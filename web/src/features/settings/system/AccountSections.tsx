import { useEffect, useState } from 'react';
import { Box, Button, Chip, Stack, TextField, Typography } from '@mui/material';
import { useController, useWatch, type Control, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { FormNumberField } from '../../../components/form/FormNumberField';
import { FormSecretField } from '../../../components/form/FormSecretField';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection, type OptionSectionConfig } from '../useOptionSection';

const LOGIN_FIELDS: OptionSectionConfig['fields'] = {
  PasswordLoginEnabled: 'bool',
  PasswordRegisterEnabled: 'bool',
  EmailVerificationEnabled: 'bool',
  RegisterEnabled: 'bool',
  TwoFactorRequirement: 'text',
};

const TWO_FACTOR_REQUIREMENTS = ['off', 'admins', 'everyone'] as const;

/** Which ways in are open. Turning password login off asks first: it can lock out whoever has no other sign-in. */
export function LoginSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: LOGIN_FIELDS });
  const { control } = section;
  const [confirmOff, setConfirmOff] = useState(false);
  return (
    <SettingsSection title={t('settingsSystem:login.title')} section={section} testId="system-login">
      <FieldGrid columns={2}>
        <FormSwitch
          control={control}
          name={fieldPath('PasswordLoginEnabled')}
          label={t('settingsSystem:login.passwordLogin')}
          onBeforeChange={(next) => {
            if (next) return true;
            setConfirmOff(true);
            return false;
          }}
        />
        <FormSwitch control={control} name={fieldPath('PasswordRegisterEnabled')} label={t('settingsSystem:login.passwordRegister')} />
        <FormSwitch control={control} name={fieldPath('EmailVerificationEnabled')} label={t('settingsSystem:login.emailVerification')} />
        <FormSwitch control={control} name={fieldPath('RegisterEnabled')} label={t('settingsSystem:login.register')} helperText={t('settingsSystem:login.registerHint')} />
        <FormSelect
          control={control}
          name={fieldPath('TwoFactorRequirement')}
          label={t('settingsSystem:login.twoFactorRequirement')}
          helperText={t('settingsSystem:login.twoFactorRequirementHint')}
          choices={TWO_FACTOR_REQUIREMENTS.map((value) => ({ value, label: t(`settingsSystem:login.twoFactor.${value}`) }))}
        />
      </FieldGrid>
      <ConfirmDialog
        open={confirmOff}
        title={t('settingsSystem:login.confirmTitle')}
        message={t('settingsSystem:login.confirmMessage')}
        confirmLabel={t('settingsSystem:login.confirmOff')}
        danger
        onClose={() => setConfirmOff(false)}
        onConfirm={() => {
          setConfirmOff(false);
          section.form.setValue(fieldPath('PasswordLoginEnabled'), false, { shouldDirty: true });
        }}
      />
    </SettingsSection>
  );
}

const EMAIL_FIELDS: OptionSectionConfig['fields'] = {
  EmailDomainRestrictionEnabled: 'bool',
  EmailAliasRestrictionEnabled: 'bool',
  EmailDomainWhitelist: 'text',
};

/** Which mail domains may register, and whether "+alias" addresses are refused. */
export function EmailRestrictionSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: EMAIL_FIELDS });
  const { control } = section;
  return (
    <SettingsSection title={t('settingsSystem:email.title')} description={t('settingsSystem:email.description')} section={section} testId="system-email">
      <FieldGrid columns={2}>
        <FormSwitch control={control} name={fieldPath('EmailDomainRestrictionEnabled')} label={t('settingsSystem:email.domainRestriction')} />
        <FormSwitch control={control} name={fieldPath('EmailAliasRestrictionEnabled')} label={t('settingsSystem:email.aliasRestriction')} />
      </FieldGrid>
      <DomainWhitelistField control={control} />
    </SettingsSection>
  );
}

const splitDomains = (list: string) =>
  String(list ?? '')
    .split(',')
    .map((domain) => domain.trim())
    .filter(Boolean);

/** The comma-separated whitelist as chips: add a domain (only a new, non-empty one), remove one by its chip. */
function DomainWhitelistField({ control }: { control: Control<FieldValues> }) {
  const { t } = useTranslation();
  const { field } = useController({ name: fieldPath('EmailDomainWhitelist'), control });
  const [draft, setDraft] = useState('');
  const domains = splitDomains(field.value as string);

  function add() {
    const domain = draft.trim().toLowerCase();
    if (domain && !domains.includes(domain)) field.onChange([...domains, domain].join(','));
    setDraft('');
  }

  return (
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        {t('settingsSystem:email.whitelist')}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1.5 }} data-testid="email-whitelist">
        {domains.map((domain) => (
          <Chip key={domain} label={domain} onDelete={() => field.onChange(domains.filter((item) => item !== domain).join(','))} />
        ))}
        {domains.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('settingsSystem:email.whitelistEmpty')}
          </Typography>
        )}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          size="small"
          value={draft}
          sx={{ flex: { sm: '0 1 320px' } }}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          placeholder="example.com"
          slotProps={{ htmlInput: { 'aria-label': t('settingsSystem:email.addDomain'), 'data-testid': 'email-whitelist-input' } }}
        />
        <Button variant="outlined" onClick={add} data-testid="email-whitelist-add" sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
          {t('settingsSystem:email.addDomain')}
        </Button>
      </Stack>
    </Box>
  );
}

const SMTP_FIELDS: OptionSectionConfig['fields'] = {
  SMTPServer: 'text',
  SMTPPort: 'text',
  SMTPAccount: 'text',
  SMTPFrom: 'text',
  SMTPToken: 'secret',
  SMTPSSLEnabled: 'bool',
};

/** Implicit TLS: a server on port 465 speaks TLS from the first byte, so SSL cannot be off there. */
const IMPLICIT_TLS_PORT = '465';

/** The mail account verification codes and password resets are sent from. */
export function SmtpSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: SMTP_FIELDS });
  const { control, form } = section;
  const port = String(useWatch({ control, name: fieldPath('SMTPPort') }) ?? '').trim();
  const forcedSsl = port === IMPLICIT_TLS_PORT;

  useEffect(() => {
    if (forcedSsl && !form.getValues(fieldPath('SMTPSSLEnabled'))) form.setValue(fieldPath('SMTPSSLEnabled'), true, { shouldDirty: true });
  }, [forcedSsl, form]);

  return (
    <SettingsSection title={t('settingsSystem:smtp.title')} description={t('settingsSystem:smtp.description')} section={section} testId="system-smtp">
      <FieldGrid>
        <FormTextField control={control} name={fieldPath('SMTPServer')} label={t('settingsSystem:smtp.server')} placeholder="smtp.example.com" />
        <FormNumberField control={control} name={fieldPath('SMTPPort')} label={t('settingsSystem:smtp.port')} placeholder="587" helperText={t('settingsSystem:smtp.portHint')} min={1} max={65535} integer />
        <FormTextField control={control} name={fieldPath('SMTPAccount')} label={t('settingsSystem:smtp.account')} />
        <FormTextField control={control} name={fieldPath('SMTPFrom')} label={t('settingsSystem:smtp.from')} helperText={t('settingsSystem:smtp.fromHint')} />
        <FormSecretField control={control} name={fieldPath('SMTPToken')} label={t('settingsSystem:smtp.token')} isSet={section.isSet('SMTPToken')} />
      </FieldGrid>
      <FormSwitch
        control={control}
        name={fieldPath('SMTPSSLEnabled')}
        label={t('settingsSystem:smtp.ssl')}
        disabled={forcedSsl}
        helperText={forcedSsl ? t('settingsSystem:smtp.sslForced') : undefined}
      />
    </SettingsSection>
  );
}
