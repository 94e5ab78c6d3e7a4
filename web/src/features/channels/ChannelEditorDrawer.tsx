import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  Divider,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import CloudDownloadOutlinedIcon from '@mui/icons-material/CloudDownloadOutlined';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormSelect } from '../../components/form/FormSelect';
import { FormSwitch } from '../../components/form/FormSwitch';
import { FormTextField } from '../../components/form/FormTextField';
import { DrawerFormActions, DrawerLoading, SideDrawer } from '../../components/SideDrawer';
import { useDrawerRecord } from '../../components/useDrawerRecord';
import { readJson, StorageKey, writeJson } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { channelsApi, type Channel, type ChannelKeyMode, type ChannelWrite } from './api';
import { ChannelKeysPanel } from './ChannelKeysPanel';
import { CHANNEL_TYPE, isRelayable } from '@shared/channel-types';
import { CHANNEL_TYPE_OPTIONS, channelProvider, type ChannelTypeRow } from './channelTypes';
import { isValidPriority, isValidWeight } from './InlineNumberField';
import { ModelPicker } from './ModelPicker';

/** The form's view of a channel: lists as arrays, numbers as the text typed. */
export interface ChannelForm {
  type: number;
  name: string;
  key: string;
  batch: boolean;
  /** One channel holding several keys, one per line (not a channel per key, as batch makes). */
  multi_key: boolean;
  multi_key_mode: ChannelKeyMode;
  base_url: string;
  other: string;
  openai_organization: string;
  models: string[];
  group: string[];
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  param_override: string;
  priority: string;
  weight: string;
  tag: string;
  auto_ban: boolean;
  test_model: string;
  max_input_tokens: string;
}

/** Spec defaults for a new channel: type 1, auto-ban on, group default, priority 0, weight 0. */
export const NEW_CHANNEL: ChannelForm = {
  type: CHANNEL_TYPE.OPENAI,
  name: '',
  key: '',
  batch: false,
  multi_key: false,
  multi_key_mode: 'random',
  base_url: '',
  other: '',
  openai_organization: '',
  models: [],
  group: ['default'],
  model_mapping: '',
  status_code_mapping: '',
  setting: '',
  param_override: '',
  priority: '0',
  weight: '0',
  tag: '',
  auto_ban: true,
  test_model: '',
  max_input_tokens: '0',
};

const CHANNEL_KEY_MODES: readonly ChannelKeyMode[] = ['random', 'polling'];

const split = (text: string) => text.split(',').map((item) => item.trim()).filter(Boolean);

function toForm(channel: Channel): ChannelForm {
  return {
    type: channel.type,
    name: channel.name,
    key: '',
    batch: false,
    multi_key: false,
    multi_key_mode: channel.multi_key_mode ?? 'random',
    base_url: channel.base_url ?? '',
    other: channel.other ?? '',
    openai_organization: channel.openai_organization ?? '',
    models: split(channel.models ?? ''),
    group: split(channel.group ?? ''),
    model_mapping: channel.model_mapping ?? '',
    status_code_mapping: channel.status_code_mapping ?? '',
    setting: channel.setting ?? '',
    param_override: channel.param_override ?? '',
    priority: String(channel.priority ?? 0),
    weight: String(channel.weight ?? 0),
    tag: channel.tag ?? '',
    auto_ban: channel.auto_ban !== 0,
    test_model: channel.test_model ?? '',
    max_input_tokens: String(channel.max_input_tokens ?? 0),
  };
}

/** Empty, or a JSON object. */
export function isJsonObjectOrEmpty(text: string): boolean {
  if (!text.trim()) return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The body sent to the server: trailing slash removed from the base URL, the `other` field's default filled where the type stores it (Spark's version). */
export function toWrite(values: ChannelForm): ChannelWrite {
  const otherField = channelProvider(values.type)?.otherField;
  const other = otherField?.filledOnSave && !values.other.trim() ? otherField.default : values.other.trim();
  return {
    type: values.type,
    name: values.name.trim(),
    key: values.key.trim(),
    base_url: values.base_url.trim().replace(/\/+$/, ''),
    other,
    openai_organization: values.openai_organization.trim(),
    models: values.models.join(','),
    group: values.group.join(','),
    model_mapping: values.model_mapping.trim(),
    status_code_mapping: values.status_code_mapping.trim(),
    setting: values.setting.trim(),
    param_override: values.param_override.trim(),
    priority: Number(values.priority),
    weight: Number(values.weight),
    tag: values.tag.trim(),
    auto_ban: values.auto_ban ? 1 : 0,
    test_model: values.test_model.trim(),
    max_input_tokens: Number(values.max_input_tokens) || 0,
    multi_key_mode: values.multi_key_mode,
  };
}

/** Several JSON keys, one compact document per line. */
function jsonPerLine(text: string): boolean {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .every(isJson);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const MONOSPACE = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 };

/** The key's format from the provider table, with its translated explanation when it has one. */
function keyFormatHelp(provider: ChannelTypeRow | undefined, t: TFunction): string | undefined {
  if (!provider) return undefined;
  const format = t('channels:editor.keyFormat', { format: provider.keyFormat });
  return provider.keyHint ? `${format} — ${t(`channels:editor.keyHints.${provider.keyHint}`)}` : format;
}

function JsonField({ name, control, label, helper, message, testId }: { name: keyof ChannelForm; control: Control<ChannelForm>; label: string; helper: string; message: string; testId: string }) {
  return (
    <FormTextField
      name={name}
      control={control}
      label={label}
      helperText={helper}
      multiline
      minRows={3}
      maxRows={10}
      rules={{ validate: (value) => isJsonObjectOrEmpty(String(value ?? '')) || message }}
      slotProps={{ htmlInput: { 'data-testid': testId, spellCheck: false, style: MONOSPACE } }}
    />
  );
}

function SectionTitle({ children }: { children: string }) {
  return (
    <Divider textAlign="left" sx={{ pt: 1 }}>
      <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600, letterSpacing: 0.5 }}>
        {children}
      </Typography>
    </Divider>
  );
}

interface ChannelEditorDrawerProps {
  /** 'add' for /channel/add, an id for /channel/edit/{id}, null when closed. */
  target: 'add' | number | null;
  groups: string[];
  onClose: () => void;
  onSaved: () => void;
}

/** Create or edit a channel; on creation the key may hold one key per line (batch mode). */
export function ChannelEditorDrawer({ target, groups, onClose, onSaved }: ChannelEditorDrawerProps) {
  const { t } = useTranslation();
  const isNew = target === 'add';
  const [knownModels, setKnownModels] = useState<string[]>([]);
  const [typeModels, setTypeModels] = useState<Record<string, string[]>>(() => readJson(StorageKey.channelModels) ?? {});
  const [fetching, setFetching] = useState(false);
  const [pendingV1, setPendingV1] = useState<ChannelForm | null>(null);
  const { control, handleSubmit, reset, setValue, getValues, formState } = useForm<ChannelForm>({ defaultValues: NEW_CHANNEL });
  const type = useWatch({ control, name: 'type' });
  const batch = useWatch({ control, name: 'batch' });
  const multiKey = useWatch({ control, name: 'multi_key' });
  // A channel that already holds several keys opens with its key field taking them one per line.
  const showMultiKey = useCallback((keyCount: number) => keyCount > 1 && setValue('multi_key', true), [setValue]);
  const baseUrl = useWatch({ control, name: 'base_url' });
  const provider = channelProvider(type);

  const loaded = useDrawerRecord(target, { load: channelsApi.get, fill: (channel) => reset(channel ? toForm(channel) : NEW_CHANNEL), onClose });

  useEffect(() => {
    if (target === null) return;
    let active = true;
    void channelsApi.enabledModels().then((result) => {
      if (!active) return;
      if (result.ok) setKnownModels(result.data ?? []);
      else toast.error(t('channels:errors.enabledModels'));
    });
    // The cached map answers at once; a fresh one replaces it (prices may have gained models).
    void channelsApi.typeModels().then((result) => {
      if (!active || !result.ok) return;
      writeJson(StorageKey.channelModels, result.data);
      setTypeModels(result.data);
    });
    return () => {
      active = false;
    };
  }, [target, t]);

  async function fetchModels() {
    const values = getValues();
    // One key is enough to list models: the first line, or the whole JSON key file.
    const key = provider?.keyIsJson ? values.key.trim() : values.key.split('\n')[0].trim();
    if (isNew && !key) {
      toast.error(t('channels:errors.fillKey'));
      return;
    }
    setFetching(true);
    const result =
      typeof target === 'number' && !key
        ? await channelsApi.fetchModelsOf(target)
        : await channelsApi.fetchModels({ base_url: values.base_url.trim().replace(/\/+$/, ''), type: values.type, key });
    setFetching(false);
    if (!result.ok) {
      toast.error(t('channels:errors.fetchModels'));
      return;
    }
    const fetched = result.data ?? [];
    setKnownModels((previous) => [...new Set([...previous, ...fetched])]);
    setValue('models', [...new Set([...getValues('models'), ...fetched])], { shouldDirty: true, shouldValidate: true });
    toast.success(t('channels:models.fetched', { count: fetched.length }));
    // A provider without a model-list API answers the models the gateway knows; the server says so.
    if (result.message) toast.info(result.message);
  }

  async function save(values: ChannelForm) {
    const body = toWrite(values);
    if (isNew) {
      const result = await channelsApi.create({ ...body, mode: values.batch ? 'batch' : 'single' }, { noResponseMessage: t('channels:errors.submitFailed') });
      if (!result.ok) return;
      toast.success(t('channels:createdCount', { count: result.data?.length ?? 1 }));
    } else if (typeof target === 'number') {
      const result = await channelsApi.update({ ...body, id: target }, { noResponseMessage: t('channels:errors.submitFailed') });
      if (!result.ok) return;
      toast.success(t('channels:updated'));
    }
    onSaved();
    onClose();
  }

  function onSubmit(values: ChannelForm) {
    if (values.base_url.trim().replace(/\/+$/, '').endsWith('/v1')) {
      setPendingV1(values);
      return;
    }
    return save(values);
  }

  const nameKeyRule = { validate: (value: unknown) => !isNew || String(value ?? '').trim() !== '' || 'channels:validation.nameAndKey' };
  const severalKeys = (isNew && batch) || multiKey;
  const keyRule = {
    validate: (value: unknown) => {
      const key = String(value ?? '').trim();
      if (isNew && key === '') return 'channels:validation.nameAndKey';
      return !provider?.keyIsJson || key === '' || isJson(key) || (severalKeys && jsonPerLine(key)) || 'channels:validation.keyJson';
    },
  };
  // A JSON key file is pasted whole, on several lines, and read back before it is saved.
  const keyOnLines = severalKeys || !!provider?.keyIsJson;
  const keyHelp =
    isNew && batch
      ? t(provider?.keyIsJson ? 'channels:editor.keyJsonBatchHelp' : 'channels:editor.keyBatchHelp')
      : multiKey
        ? t(provider?.keyIsJson ? 'channels:editor.keyJsonMultiHelp' : 'channels:editor.keyMultiHelp')
        : keyFormatHelp(provider, t);
  const otherField = provider?.otherField;
  const otherLabel = otherField ? t(`channels:fields.otherMeaning.${otherField.meaning}`) : t('channels:fields.other');
  const otherPlaceholder = otherField?.default || undefined;
  const otherHelp = otherField ? t(`channels:editor.otherHelp.${otherField.meaning}`, { default: otherField.default }) : undefined;

  return (
    <SideDrawer
      open={target !== null}
      onClose={onClose}
      title={isNew ? t('channels:editor.addTitle') : t('channels:editor.editTitle')}
      testId="channel-editor"
      actions={<DrawerFormActions formId="channel-form" disabled={!loaded || formState.isSubmitting || (provider !== undefined && !isRelayable(provider))} onCancel={onClose} submitTestId="channel-submit" />}
    >
      {!loaded ? (
        <DrawerLoading />
      ) : (
        <Box component="form" id="channel-form" noValidate onSubmit={handleSubmit(onSubmit)}>
          <Stack spacing={2.25}>
            <FormTextField name="type" control={control} select label={t('channels:fields.type')} data-testid="channel-type">
              {CHANNEL_TYPE_OPTIONS.filter((option) => !option.retired || option.id === type).map((option) => (
                <MenuItem key={option.id} value={option.id} disabled={option.retired}>
                  {option.name}
                </MenuItem>
              ))}
            </FormTextField>
            {provider && !isRelayable(provider) && (
              <Alert severity="error" data-testid="channel-retired">
                {t(`channels:editor.retired.${provider.retiredReason ?? 'unserved'}`)}
              </Alert>
            )}
            <FormTextField name="name" control={control} label={t('channels:fields.name')} rules={nameKeyRule} slotProps={{ htmlInput: { 'data-testid': 'channel-name' } }} />
            {isNew && !multiKey && <FormSwitch name="batch" control={control} label={t('channels:fields.batch')} testId="channel-batch" />}
            {!(isNew && batch) && <FormSwitch name="multi_key" control={control} label={t('channels:fields.multiKey')} testId="channel-multi-key" />}
            {multiKey && (
              <FormSelect
                name="multi_key_mode"
                control={control}
                label={t('channels:fields.multiKeyMode')}
                helperText={t('channels:editor.multiKeyModeHelp')}
                choices={CHANNEL_KEY_MODES.map((mode) => ({ value: mode, label: t(`channels:keys.modes.${mode}`) }))}
                data-testid="channel-multi-key-mode"
              />
            )}
            <FormTextField
              name="key"
              control={control}
              label={t('channels:fields.key')}
              rules={keyRule}
              multiline={keyOnLines}
              minRows={keyOnLines ? 4 : undefined}
              maxRows={keyOnLines ? 12 : undefined}
              type={keyOnLines ? undefined : 'password'}
              autoComplete="new-password"
              placeholder={isNew ? (severalKeys ? t('channels:editor.keyBatchPlaceholder') : t('channels:editor.keyPlaceholder')) : t('channels:editor.keyUnchanged')}
              helperText={keyHelp}
              // When editing, the label stays up so the placeholder shows: the stored key is never sent back, and blank keeps it.
              slotProps={{ inputLabel: isNew ? undefined : { shrink: true }, htmlInput: { 'data-testid': 'channel-key', spellCheck: false, ...(provider?.keyIsJson ? { style: MONOSPACE } : {}) } }}
            />
            {typeof target === 'number' && <ChannelKeysPanel channelId={target} onKeyCount={showMultiKey} />}
            <FormTextField
              name="base_url"
              control={control}
              label={t('channels:fields.baseUrl')}
              placeholder={provider?.defaultBaseUrl ? t('channels:editor.baseUrlDefault', { url: provider.defaultBaseUrl }) : t('channels:editor.baseUrlPlaceholder')}
              helperText={t('channels:editor.baseUrlHelp')}
              slotProps={{ htmlInput: { 'data-testid': 'channel-base-url' } }}
            />
            {baseUrl.trim().replace(/\/+$/, '').endsWith('/v1') && (
              <Alert severity="warning" data-testid="channel-v1-warning">
                {t('channels:editor.v1Warning')}
              </Alert>
            )}
            {type === CHANNEL_TYPE.OPENAI && <FormTextField name="openai_organization" control={control} label={t('channels:fields.organization')} />}
            <FormTextField name="other" control={control} label={otherLabel} placeholder={otherPlaceholder} helperText={otherHelp} slotProps={{ htmlInput: { 'data-testid': 'channel-other' } }} />

            <SectionTitle>{t('channels:editor.sectionModels')}</SectionTitle>
            <Controller
              name="models"
              control={control}
              rules={{ validate: (value) => value.length > 0 || 'channels:validation.modelsRequired' }}
              render={({ field, fieldState }) => (
                <ModelPicker
                  value={field.value}
                  onChange={field.onChange}
                  options={[...new Set([...knownModels, ...(typeModels[type] ?? [])])]}
                  label={t('channels:fields.models')}
                  error={fieldState.error?.message ? t(fieldState.error.message) : undefined}
                  testId="channel-models"
                  actions={
                    <>
                      <Button
                        size="small"
                        variant="outlined"
                        disabled={!typeModels[type]?.length}
                        onClick={() => field.onChange([...new Set([...field.value, ...(typeModels[type] ?? [])])])}
                        data-testid="channel-fill-models"
                      >
                        {t('channels:models.fillRelated')}
                      </Button>
                      <Button
                        size="small"
                        variant="outlined"
                        startIcon={fetching ? <CircularProgress size={14} /> : <CloudDownloadOutlinedIcon />}
                        disabled={fetching}
                        onClick={() => void fetchModels()}
                        data-testid="channel-fetch-models"
                      >
                        {t('channels:models.fetch')}
                      </Button>
                      <Button size="small" color="inherit" onClick={() => field.onChange([])}>
                        {t('channels:models.clear')}
                      </Button>
                    </>
                  }
                />
              )}
            />
            <Controller
              name="group"
              control={control}
              render={({ field }) => (
                <Autocomplete
                  multiple
                  size="small"
                  freeSolo
                  options={groups}
                  value={field.value}
                  onChange={(_, next) => field.onChange(next.map((item) => item.trim()).filter(Boolean))}
                  renderInput={(params) => <TextField {...params} label={t('channels:fields.group')} helperText={t('channels:editor.groupHelp')} />}
                />
              )}
            />
            <FormTextField name="test_model" control={control} label={t('channels:fields.testModel')} helperText={t('channels:editor.testModelHelp')} />

            <SectionTitle>{t('channels:editor.sectionRouting')}</SectionTitle>
            <Stack direction="row" spacing={1.5}>
              <FormTextField
                name="priority"
                control={control}
                label={t('channels:fields.priority')}
                rules={{ validate: (value) => isValidPriority(String(value).trim()) || 'channels:validation.priority' }}
                slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'channel-priority' } }}
              />
              <FormTextField
                name="weight"
                control={control}
                label={t('channels:fields.weight')}
                rules={{ validate: (value) => isValidWeight(String(value).trim()) || 'channels:validation.weight' }}
                slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'channel-weight' } }}
              />
            </Stack>
            <FormTextField name="tag" control={control} label={t('channels:fields.tag')} helperText={t('channels:editor.tagHelp')} slotProps={{ htmlInput: { 'data-testid': 'channel-tag' } }} />
            <Controller
              name="auto_ban"
              control={control}
              render={({ field }) => (
                <FormControlLabel
                  control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} data-testid="channel-auto-ban" />}
                  label={t('channels:fields.autoBan')}
                />
              )}
            />
            <FormTextField
              name="max_input_tokens"
              control={control}
              label={t('channels:fields.maxInputTokens')}
              helperText={t('channels:editor.maxInputTokensHelp')}
              rules={{ validate: (value) => /^\d+$/.test(String(value).trim()) || 'channels:validation.nonNegative' }}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />

            <SectionTitle>{t('channels:editor.sectionAdvanced')}</SectionTitle>
            <JsonField name="model_mapping" control={control} label={t('channels:fields.modelMapping')} helper={t('channels:editor.modelMappingHelp')} message="channels:validation.modelMappingJson" testId="channel-model-mapping" />
            <JsonField name="status_code_mapping" control={control} label={t('channels:fields.statusCodeMapping')} helper={t('channels:editor.statusCodeMappingHelp')} message="channels:validation.statusCodeMappingJson" testId="channel-status-code-mapping" />
            <JsonField name="setting" control={control} label={t('channels:fields.setting')} helper={t('channels:editor.settingHelp')} message="channels:validation.settingJson" testId="channel-setting" />
            <JsonField name="param_override" control={control} label={t('channels:fields.paramOverride')} helper={t('channels:editor.paramOverrideHelp')} message="channels:validation.paramOverrideJson" testId="channel-param-override" />
          </Stack>
        </Box>
      )}
      <ConfirmDialog
        open={!!pendingV1}
        title={t('channels:editor.v1ConfirmTitle')}
        message={t('channels:editor.v1Warning')}
        confirmLabel={t('channels:editor.v1Continue')}
        onClose={() => setPendingV1(null)}
        onConfirm={() => {
          const values = pendingV1;
          setPendingV1(null);
          if (values) void save(values);
        }}
      />
    </SideDrawer>
  );
}
