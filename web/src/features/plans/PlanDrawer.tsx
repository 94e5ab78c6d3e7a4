import { Stack } from '@mui/material';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSwitch } from '../../components/form/FormSwitch';
import { FormTextField } from '../../components/form/FormTextField';
import { DrawerFormActions, DrawerLoading, SideDrawer } from '../../components/SideDrawer';
import { useDrawerRecord } from '../../components/useDrawerRecord';
import { renderQuota } from '../../lib/quota';
import { toast } from '../../lib/toast';
import { BudgetFields } from '../budget/BudgetFields';
import { fromBudgetForm, toBudgetForm, type BudgetForm } from '../budget/budget';
import { plansApi, type Plan, type PlanWrite } from './api';

interface PlanForm {
  name: string;
  price: string;
  duration_days: string;
  group: string;
  total_quota: string;
  /** Comma-separated; empty for every model. */
  models: string;
  enabled: boolean;
  allow_wallet_fallback: boolean;
  /** The windows part of the shared budget editor (its limits are not a plan's). */
  budget: BudgetForm;
}

const INTEGER = /^\d+$/;
const PRICE = /^\d+(\.\d{1,2})?$/;

function toForm(plan?: Plan): PlanForm {
  return {
    name: plan?.name ?? '',
    price: String(plan?.price ?? 0),
    duration_days: String(plan?.duration_days ?? 30),
    group: plan?.group ?? '',
    total_quota: String(plan?.total_quota ?? 0),
    models: (plan?.models ?? []).join(', '),
    enabled: plan?.enabled ?? true,
    allow_wallet_fallback: plan?.allow_wallet_fallback ?? false,
    budget: toBudgetForm({ budget_windows: plan?.budget_windows ?? [], rpm_limit: 0, tpm_limit: 0 }),
  };
}

function toWrite(form: PlanForm): PlanWrite {
  return {
    name: form.name.trim(),
    price: Number(form.price),
    duration_days: Number(form.duration_days),
    group: form.group.trim(),
    total_quota: Number(form.total_quota || 0),
    budget_windows: fromBudgetForm(form.budget).budget_windows,
    models: form.models.split(',').map((name) => name.trim()).filter(Boolean),
    enabled: form.enabled,
    allow_wallet_fallback: form.allow_wallet_fallback,
  };
}

/** Create or edit a plan: what it costs, how long it lasts, what it covers and its windows. */
export function PlanDrawer({ target, onClose, onSaved }: { target: 'add' | number | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const isNew = target === 'add';
  const { control, handleSubmit, reset, formState } = useForm<PlanForm>({ defaultValues: toForm() });
  const totalQuota = useWatch({ control, name: 'total_quota' });
  const loaded = useDrawerRecord(target, { load: plansApi.get, fill: (plan) => reset(toForm(plan)), onClose });

  async function onSubmit(values: PlanForm) {
    const body = toWrite(values);
    const result = typeof target === 'number' ? await plansApi.update({ id: target, ...body }) : await plansApi.create(body);
    if (!result.ok) return;
    toast.success(t(isNew ? 'plans:drawer.created' : 'plans:drawer.updated'));
    onSaved();
    onClose();
  }

  return (
    <SideDrawer
      open={target !== null}
      title={isNew ? t('plans:drawer.addTitle') : t('plans:drawer.editTitle')}
      onClose={onClose}
      testId="plan-drawer"
      actions={<DrawerFormActions formId="plan-form" disabled={!loaded || formState.isSubmitting} onCancel={onClose} submitTestId="plan-submit" />}
    >
      {!loaded ? (
        <DrawerLoading />
      ) : (
        <Stack component="form" id="plan-form" spacing={2.5} onSubmit={handleSubmit(onSubmit)} noValidate>
          <FormTextField
            control={control}
            name="name"
            label={t('plans:fields.name')}
            rules={{ validate: (value) => (String(value).trim().length >= 1 && String(value).trim().length <= 64) || 'plans:validation.name' }}
            slotProps={{ htmlInput: { 'data-testid': 'plan-name', maxLength: 64 } }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField
              control={control}
              name="price"
              fullWidth
              label={t('plans:fields.price')}
              helperText={t('plans:drawer.priceHelp')}
              rules={{ validate: (value) => PRICE.test(String(value).trim()) || 'plans:validation.price' }}
              slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'plan-price' } }}
            />
            <FormTextField
              control={control}
              name="duration_days"
              fullWidth
              label={t('plans:fields.duration')}
              rules={{ validate: (value) => (INTEGER.test(String(value).trim()) && Number(value) >= 1 && Number(value) <= 3650) || 'plans:validation.duration' }}
              slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'plan-duration' } }}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField
              control={control}
              name="total_quota"
              fullWidth
              label={t('plans:fields.totalQuota')}
              helperText={INTEGER.test(totalQuota) && Number(totalQuota) > 0 ? renderQuota(Number(totalQuota)) : t('plans:drawer.noTotal')}
              rules={{ validate: (value) => INTEGER.test(String(value).trim() || '0') || 'plans:validation.totalQuota' }}
              slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'plan-total-quota' } }}
            />
            <FormTextField
              control={control}
              name="group"
              fullWidth
              label={t('plans:fields.group')}
              helperText={t('plans:drawer.groupHelp')}
              slotProps={{ htmlInput: { 'data-testid': 'plan-group', maxLength: 64 } }}
            />
          </Stack>
          <FormTextField
            control={control}
            name="models"
            label={t('plans:fields.models')}
            helperText={t('plans:drawer.modelsHelp')}
            slotProps={{ htmlInput: { 'data-testid': 'plan-models' } }}
          />
          <BudgetFields control={control} testId="plan-windows" limits={false} />
          <FormSwitch control={control} name="allow_wallet_fallback" label={t('plans:fields.fallback')} helperText={t('plans:drawer.fallbackHelp')} />
          <FormSwitch control={control} name="enabled" label={t('plans:fields.enabled')} />
        </Stack>
      )}
    </SideDrawer>
  );
}
