import { Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { FormJsonField } from '../../../components/form/FormJsonField';
import { FormNumberField } from '../../../components/form/FormNumberField';
import { FormSwitch } from '../../../components/form/FormSwitch';
import { SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';

function GlobalSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: { 'global.pass_through_request_enabled': 'bool' } });
  return (
    <SettingsSection title={t('settings:models.global.title')} section={section} testId="settings-models-global">
      <FormSwitch
        name={fieldPath('global.pass_through_request_enabled')}
        control={section.control}
        label={t('settings:models.global.passThrough')}
        helperText={t('settings:models.global.passThroughHelp')}
      />
    </SettingsSection>
  );
}

/** ModelFallbacks: model → the models tried in order once every channel of it failed. */
function FallbackSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: { ModelFallbacks: 'json' } });
  return (
    <SettingsSection title={t('settings:models.fallbacks.title')} description={t('settings:models.fallbacks.description')} section={section} testId="settings-models-fallbacks">
      <FormJsonField name={fieldPath('ModelFallbacks')} control={section.control} label={t('settings:models.fallbacks.chains')} helperText={t('settings:models.fallbacks.chainsHelp')} />
    </SettingsSection>
  );
}

function GeminiSection() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: { 'gemini.safety_settings': 'json', 'gemini.version_settings': 'json' } });
  return (
    <SettingsSection title={t('settings:models.gemini.title')} section={section} testId="settings-models-gemini">
      <FormJsonField name={fieldPath('gemini.safety_settings')} control={section.control} label={t('settings:models.gemini.safety')} helperText={t('settings:models.gemini.safetyHelp')} />
      <FormJsonField name={fieldPath('gemini.version_settings')} control={section.control} label={t('settings:models.gemini.version')} helperText={t('settings:models.gemini.versionHelp')} />
    </SettingsSection>
  );
}

function ClaudeSection() {
  const { t } = useTranslation();
  const section = useOptionSection({
    fields: {
      'claude.model_headers_settings': 'json',
      'claude.thinking_adapter_enabled': 'bool',
      'claude.default_max_tokens': 'json',
      'claude.thinking_adapter_budget_tokens_percentage': 'text',
    },
  });
  const { control } = section;
  const label = (key: string) => t(`settings:models.claude.${key}`);
  return (
    <SettingsSection title={label('title')} section={section} testId="settings-models-claude">
      <FormJsonField name={fieldPath('claude.model_headers_settings')} control={control} label={label('headers')} helperText={label('headersHelp')} />
      <FormJsonField name={fieldPath('claude.default_max_tokens')} control={control} label={label('maxTokens')} helperText={label('maxTokensHelp')} />
      <FormSwitch name={fieldPath('claude.thinking_adapter_enabled')} control={control} label={label('thinkingAdapter')} helperText={label('thinkingAdapterHelp')} />
      <FormNumberField
        name={fieldPath('claude.thinking_adapter_budget_tokens_percentage')}
        control={control}
        label={label('budgetPercentage')}
        helperText={label('budgetPercentageHelp')}
        min={0.1}
        max={1}
        step={0.1}
        sx={{ maxWidth: { sm: 360 } }}
      />
    </SettingsSection>
  );
}

/** The models tab: the pass-through switch, the fallback chains, then Gemini and Claude specifics. */
export default function ModelSettings() {
  return (
    <Stack spacing={3}>
      <GlobalSection />
      <FallbackSection />
      <GeminiSection />
      <ClaudeSection />
    </Stack>
  );
}
