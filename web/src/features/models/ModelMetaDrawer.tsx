import { MenuItem, Stack } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { DrawerFormActions, DrawerLoading, SideDrawer } from '../../components/SideDrawer';
import { useDrawerRecord } from '../../components/useDrawerRecord';
import { toast } from '../../lib/toast';
import { modelsApi, type Modality, type ModelMeta, type ModelMetaWrite, type ModelTag, type Vendor } from './api';
import { IconField } from './IconField';
import { MODALITIES, MODEL_TAGS } from './modelMeta';

interface ModelMetaForm {
  model_name: string;
  description: string;
  /** '0': none. */
  vendor_id: string;
  tags: ModelTag[];
  context_length: string;
  max_output: string;
  input_modalities: Modality[];
  output_modalities: Modality[];
  icon: string;
}

const TOKEN_COUNT = /^\d{1,8}$/;
const MAX_TOKENS = 10_000_000;

function toForm(meta?: ModelMeta): ModelMetaForm {
  return {
    model_name: meta?.model_name ?? '',
    description: meta?.description ?? '',
    vendor_id: String(meta?.vendor_id ?? 0),
    tags: meta?.tags ?? [],
    context_length: String(meta?.context_length ?? 0),
    max_output: String(meta?.max_output ?? 0),
    input_modalities: meta?.input_modalities ?? ['text'],
    output_modalities: meta?.output_modalities ?? ['text'],
    icon: meta?.icon ?? '',
  };
}

function toWrite(form: ModelMetaForm): ModelMetaWrite {
  return {
    model_name: form.model_name.trim(),
    description: form.description.trim(),
    vendor_id: Number(form.vendor_id),
    tags: form.tags,
    context_length: Number(form.context_length || 0),
    max_output: Number(form.max_output || 0),
    input_modalities: form.input_modalities,
    output_modalities: form.output_modalities,
    icon: form.icon.trim(),
  };
}

const tokenCountRule = { validate: (value: unknown) => (TOKEN_COUNT.test(String(value).trim() || '0') && Number(value) <= MAX_TOKENS) || 'models:validation.tokenCount' };

/** Create or edit one model's metadata. */
export function ModelMetaDrawer({ target, vendors, onClose, onSaved }: { target: 'add' | number | null; vendors: Vendor[]; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const isNew = target === 'add';
  const { control, handleSubmit, reset, formState } = useForm<ModelMetaForm>({ defaultValues: toForm() });
  const loaded = useDrawerRecord(target, { load: modelsApi.get, fill: (meta) => reset(toForm(meta)), onClose });

  async function onSubmit(values: ModelMetaForm) {
    const body = toWrite(values);
    const result = typeof target === 'number' ? await modelsApi.update({ id: target, ...body }) : await modelsApi.create(body);
    if (!result.ok) return;
    toast.success(t(isNew ? 'models:drawer.created' : 'models:drawer.updated'));
    onSaved();
    onClose();
  }

  const multiple = (testId: string) => ({ select: { multiple: true }, htmlInput: { 'data-testid': testId } });

  return (
    <SideDrawer
      open={target !== null}
      title={isNew ? t('models:drawer.addTitle') : t('models:drawer.editTitle')}
      onClose={onClose}
      testId="model-meta-drawer"
      actions={<DrawerFormActions formId="model-meta-form" disabled={!loaded || formState.isSubmitting} onCancel={onClose} submitTestId="model-meta-submit" />}
    >
      {!loaded ? (
        <DrawerLoading />
      ) : (
        <Stack component="form" id="model-meta-form" spacing={2.5} onSubmit={handleSubmit(onSubmit)} noValidate>
          <FormTextField
            control={control}
            name="model_name"
            label={t('models:fields.modelName')}
            rules={{ validate: (value) => (String(value).trim().length >= 1 && String(value).trim().length <= 255) || 'models:validation.modelName' }}
            slotProps={{ htmlInput: { 'data-testid': 'model-meta-name', maxLength: 255 } }}
          />
          <FormTextField
            control={control}
            name="description"
            label={t('models:fields.description')}
            multiline
            minRows={2}
            rules={{ maxLength: { value: 1000, message: 'models:validation.description' } }}
            slotProps={{ htmlInput: { 'data-testid': 'model-meta-description', maxLength: 1000 } }}
          />
          <FormTextField control={control} name="vendor_id" select label={t('models:fields.vendor')} slotProps={{ htmlInput: { 'data-testid': 'model-meta-vendor' } }}>
            <MenuItem value="0">{t('models:noVendor')}</MenuItem>
            {vendors.map((vendor) => (
              <MenuItem key={vendor.id} value={String(vendor.id)}>
                {vendor.name}
              </MenuItem>
            ))}
          </FormTextField>
          <FormTextField control={control} name="tags" select label={t('models:fields.tags')} slotProps={multiple('model-meta-tags')}>
            {MODEL_TAGS.map((tag) => (
              <MenuItem key={tag} value={tag} data-testid={`model-meta-tag-option-${tag}`}>
                {t(`models:tags.${tag}`)}
              </MenuItem>
            ))}
          </FormTextField>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField
              control={control}
              name="context_length"
              fullWidth
              label={t('models:fields.contextLength')}
              helperText={t('models:drawer.unknownIsZero')}
              rules={tokenCountRule}
              slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'model-meta-context' } }}
            />
            <FormTextField
              control={control}
              name="max_output"
              fullWidth
              label={t('models:fields.maxOutput')}
              rules={tokenCountRule}
              slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'model-meta-max-output' } }}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {(['input_modalities', 'output_modalities'] as const).map((name) => (
              <FormTextField key={name} control={control} name={name} select fullWidth label={t(`models:fields.${name}`)} slotProps={multiple(`model-meta-${name}`)}>
                {MODALITIES.map((modality) => (
                  <MenuItem key={modality} value={modality}>
                    {t(`models:modalities.${modality}`)}
                  </MenuItem>
                ))}
              </FormTextField>
            ))}
          </Stack>
          <IconField control={control} name="icon" testId="model-meta-icon" />
        </Stack>
      )}
    </SideDrawer>
  );
}
