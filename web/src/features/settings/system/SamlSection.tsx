import { useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import { useTranslation } from 'react-i18next';
import type { SamlSettingsView } from '@shared/saml/saml.wire';
import { api } from '../../../api/client';
import { FormJsonField } from '../../../components/form/FormJsonField';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { FormTextField } from '../../../components/form/FormTextField';
import type { OptionKey } from '../api';
import { useOptions } from '../OptionsProvider';
import { FieldGrid, SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection, type OptionFieldKind } from '../useOptionSection';

const SAML_FIELDS = {
  'saml.enabled': 'bool',
  'saml.idp_metadata_url': 'text',
  'saml.idp_metadata_xml': 'text',
  'saml.username_attribute': 'text',
  'saml.email_attribute': 'text',
  'saml.group_attribute': 'text',
  'saml.group_mapping': 'json',
  'saml.bind_by_email': 'bool',
} as const satisfies Partial<Record<OptionKey, OptionFieldKind>>;

/** One line of the check's answer: a label and a value to copy. */
function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', wordBreak: 'break-all' }}>
        {value}
      </Typography>
    </Box>
  );
}

/**
 * SAML 2.0 sign-in: the IdP's metadata (URL or XML), which attributes name the user, the group
 * mapping and email binding. "Check metadata" reads the saved metadata on the server and shows what
 * it found, with the addresses to register at the IdP.
 */
export function SamlSection() {
  const { t } = useTranslation();
  const { values } = useOptions();
  const section = useOptionSection({ fields: SAML_FIELDS });
  const { control } = section;
  const [checking, setChecking] = useState(false);
  const [found, setFound] = useState<SamlSettingsView | null>(null);
  const base = values.ServerAddress || '{ServerAddress}';

  async function check() {
    setChecking(true);
    const result = await api.get<SamlSettingsView>('/api/saml/settings');
    setChecking(false);
    setFound(result.ok ? result.data : null);
  }

  const text = (key: keyof typeof SAML_FIELDS, label: string, helper?: string) => (
    <FormTextField control={control} name={fieldPath(key)} label={t(label)} helperText={helper ? t(helper) : undefined} />
  );

  return (
    <SettingsSection
      title={t('settingsSystem:saml.title')}
      description={t('settingsSystem:saml.description', { metadata: `${base}/api/saml/metadata`, acs: `${base}/api/saml/acs` })}
      section={section}
      testId="system-saml"
      actions={
        <Button variant="outlined" startIcon={<FactCheckOutlinedIcon />} disabled={checking} onClick={() => void check()} data-testid="saml-check">
          {t('settingsSystem:saml.check')}
        </Button>
      }
    >
      <FormSwitch control={control} name={fieldPath('saml.enabled')} label={t('settingsSystem:saml.enabled')} />
      <FormTextField
        control={control}
        name={fieldPath('saml.idp_metadata_url')}
        label={t('settingsSystem:saml.metadataUrl')}
        placeholder="https://idp.example.com/app/…/sso/saml/metadata"
        helperText={t('settingsSystem:saml.metadataUrlHint')}
        fullWidth
      />
      <FormTextField
        control={control}
        name={fieldPath('saml.idp_metadata_xml')}
        label={t('settingsSystem:saml.metadataXml')}
        helperText={t('settingsSystem:saml.metadataXmlHint')}
        multiline
        minRows={3}
        maxRows={12}
        fullWidth
      />
      <FieldGrid>
        {text('saml.username_attribute', 'settingsSystem:saml.usernameAttribute', 'settingsSystem:saml.usernameAttributeHint')}
        {text('saml.email_attribute', 'settingsSystem:saml.emailAttribute')}
        {text('saml.group_attribute', 'settingsSystem:saml.groupAttribute')}
      </FieldGrid>
      <FormJsonField
        control={control}
        name={fieldPath('saml.group_mapping')}
        label={t('settingsSystem:saml.groupMapping')}
        helperText={t('settingsSystem:saml.groupMappingHint')}
        minRows={3}
      />
      <FormSwitch control={control} name={fieldPath('saml.bind_by_email')} label={t('settingsSystem:saml.bindByEmail')} />
      {found && (
        <Stack spacing={1} data-testid="saml-found" sx={{ p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
          <Fact label={t('settingsSystem:saml.spEntityId')} value={found.sp_entity_id} />
          <Fact label={t('settingsSystem:saml.acsUrl')} value={found.acs_url} />
          <Fact label={t('settingsSystem:saml.idpEntityId')} value={found.idp_entity_id} />
          <Fact label={t('settingsSystem:saml.idpSsoUrl')} value={found.idp_sso_url} />
          {found.idp_certificates.map((certificate) => (
            <Fact
              key={certificate.sha256_fingerprint}
              label={t('settingsSystem:saml.certificate', { subject: certificate.subject, notAfter: certificate.not_after })}
              value={certificate.sha256_fingerprint}
            />
          ))}
        </Stack>
      )}
    </SettingsSection>
  );
}
