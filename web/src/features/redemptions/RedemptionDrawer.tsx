import { useEffect, useState } from 'react';
import { Chip, Stack } from '@mui/material';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSelect } from '../../components/form/FormSelect';
import { FormTextField } from '../../components/form/FormTextField';
import { DrawerFormActions, DrawerLoading, SideDrawer } from '../../components/SideDrawer';
import { useDrawerRecord } from '../../components/useDrawerRecord';
import { renderQuota } from '../../lib/quota';
import { toast } from '../../lib/toast';
import { plansApi, type Plan } from '../plans/api';
import { DEFAULT_REDEMPTION_QUOTA, MAX_REDEMPTIONS_PER_BATCH, redemptionsApi } from './api';

interface RedemptionForm {
  name: string;
  quota: string;
  count: string;
  /** '' for a quota code; a plan id for codes that grant the plan instead. */
  plan: string;
}

/** The token page's quick amounts: $1, $10, $50, $100, $500, $1000. */
const QUICK_QUOTAS = [500000, 5000000, 25000000, 50000000, 250000000, 500000000];
const INTEGER = /^\d+$/;

/** Create a batch of codes (answering their keys) or edit one unused code. */
export function RedemptionDrawer({ target, onClose, onSaved, onCreated }: { target: 'add' | number | null; onClose: () => void; onSaved: () => void; onCreated: (keys: string[]) => void }) {
  const { t } = useTranslation();
  const isNew = target === 'add';
  const { control, handleSubmit, reset, setValue, formState } = useForm<RedemptionForm>({ defaultValues: { name: '', quota: String(DEFAULT_REDEMPTION_QUOTA), count: '1', plan: '' } });
  // Watched, so the amount under the field follows what is typed or picked.
  const quota = useWatch({ control, name: 'quota' });
  const plan = useWatch({ control, name: 'plan' });
  const [plans, setPlans] = useState<Plan[]>([]);

  useEffect(() => {
    if (target !== 'add') return;
    void plansApi.list().then((result) => result.ok && setPlans(result.data.filter((entry) => entry.enabled)));
  }, [target]);

  const loaded = useDrawerRecord(target, {
    load: redemptionsApi.get,
    fill: (code) => reset({ name: code?.name ?? '', quota: String(code?.quota ?? DEFAULT_REDEMPTION_QUOTA), count: '1', plan: '' }),
    onClose,
  });

  async function onSubmit(values: RedemptionForm) {
    const quota = Number(values.quota);
    const planId = values.plan ? Number(values.plan) : undefined;
    // A blank name becomes the formatted amount (or the plan's name), as the spec asks.
    const name = values.name.trim() || (planId ? (plans.find((entry) => entry.id === planId)?.name ?? '') : renderQuota(quota)).slice(0, 20);
    if (isNew) {
      const result = await redemptionsApi.create({ name, quota, count: Number(values.count), plan_id: planId });
      if (!result.ok) return;
      toast.success(t('redemptions:drawer.created', { count: result.data.length }));
      onCreated(result.data);
    } else if (typeof target === 'number') {
      const result = await redemptionsApi.update({ id: target, name, quota });
      if (!result.ok) return;
      toast.success(t('redemptions:drawer.updated'));
    }
    onSaved();
    onClose();
  }

  return (
    <SideDrawer
      open={target !== null}
      title={isNew ? t('redemptions:drawer.addTitle') : t('redemptions:drawer.editTitle')}
      onClose={onClose}
      testId="redemption-drawer"
      actions={<DrawerFormActions formId="redemption-form" disabled={!loaded || formState.isSubmitting} onCancel={onClose} submitTestId="redemption-submit" />}
    >
      {!loaded ? (
        <DrawerLoading />
      ) : (
        <Stack component="form" id="redemption-form" spacing={2.5} onSubmit={handleSubmit(onSubmit)} noValidate>
          <FormTextField
            control={control}
            name="name"
            label={t('redemptions:fields.name')}
            helperText={t('redemptions:drawer.nameHint')}
            rules={{ validate: (value) => value.trim().length <= 20 || 'redemptions:validation.name' }}
            slotProps={{ htmlInput: { 'data-testid': 'redemption-name' } }}
          />
          {isNew && plans.length > 0 && (
            <FormSelect
              control={control}
              name="plan"
              label={t('redemptions:fields.plan')}
              helperText={t('redemptions:drawer.planHint')}
              choices={[{ value: '', label: t('redemptions:drawer.noPlan') }, ...plans.map((entry) => ({ value: String(entry.id), label: entry.name }))]}
              slotProps={{ htmlInput: { 'data-testid': 'redemption-plan' } }}
            />
          )}
          {!plan && (
            <FormTextField
              control={control}
              name="quota"
              label={t('redemptions:fields.quota')}
              helperText={INTEGER.test(quota) ? renderQuota(Number(quota)) : ''}
              rules={{ validate: (value) => (INTEGER.test(value.trim()) && Number(value) > 0) || 'redemptions:validation.quota' }}
              slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'redemption-quota' }, formHelperText: { 'data-testid': 'redemption-quota-amount' } as object }}
            />
          )}
          {!plan && (
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
              {QUICK_QUOTAS.map((value) => (
                <Chip key={value} size="small" variant="outlined" clickable label={renderQuota(value)} onClick={() => setValue('quota', String(value), { shouldValidate: true, shouldDirty: true })} />
              ))}
            </Stack>
          )}
          {isNew && (
            <FormTextField
              control={control}
              name="count"
              label={t('redemptions:fields.count')}
              rules={{ validate: (value) => (INTEGER.test(value.trim()) && Number(value) >= 1 && Number(value) <= MAX_REDEMPTIONS_PER_BATCH) || 'redemptions:validation.count' }}
              slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'redemption-count' } }}
            />
          )}
        </Stack>
      )}
    </SideDrawer>
  );
}
