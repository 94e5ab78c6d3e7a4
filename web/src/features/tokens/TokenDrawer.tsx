import { useEffect, useState } from 'react';
import { Autocomplete, Box, Chip, Divider, FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSwitch } from '../../components/form/FormSwitch';
import { FormTextField } from '../../components/form/FormTextField';
import { DrawerFormActions, DrawerLoading, SideDrawer } from '../../components/SideDrawer';
import { useDrawerRecord } from '../../components/useDrawerRecord';
import { useStatus } from '../status/StatusProvider';
import { renderQuota } from '../../lib/quota';
import { formatDateTime, formatTimestamp, parseDateTime } from '../../lib/time';
import { toast } from '../../lib/toast';
import { BudgetFields } from '../budget/BudgetFields';
import { fromBudgetForm, toBudgetForm, type BudgetForm } from '../budget/budget';
import { NEVER_EXPIRES, tokensApi, type GroupChoices, type Token, type TokenWrite } from './api';

interface TokenForm {
  name: string;
  remain_quota: string;
  unlimited_quota: boolean;
  /** `yyyy-MM-dd HH:mm:ss`, or empty for never. */
  expired_time: string;
  count: string;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string;
  model_fallbacks: string[];
  group: string;
  response_cache: boolean;
  response_cache_nondeterministic: boolean;
  budget: BudgetForm;
}

/** The most fallback models a token may list (the server's MAX_FALLBACK_MODELS). */
const MAX_FALLBACK_MODELS = 10;

/** Quick quota picks: 1, 10, 50, 100, 500 and 1000 dollars at 500000 quota per dollar. */
export const QUICK_QUOTAS = [500000, 5000000, 25000000, 50000000, 250000000, 500000000];
export const QUICK_COUNTS = [10, 20, 30, 100];
const NEW_TOKEN_QUOTA = 500000;
const HOUR = 3600 * 1000;
const QUICK_EXPIRIES = [
  { key: 'never', offset: 0 },
  { key: 'hour', offset: HOUR },
  { key: 'day', offset: 24 * HOUR },
  { key: 'month', offset: 30 * 24 * HOUR },
] as const;

/** A new token: $1 of quota, never expiring, in the user's group (or auto when that is the default). */
function blankToken(group: string): TokenForm {
  return {
    name: '',
    remain_quota: String(NEW_TOKEN_QUOTA),
    unlimited_quota: false,
    expired_time: '',
    count: '1',
    model_limits_enabled: false,
    model_limits: [],
    allow_ips: '',
    model_fallbacks: [],
    group,
    response_cache: false,
    response_cache_nondeterministic: false,
    budget: toBudgetForm(),
  };
}

function toForm(token: Token): TokenForm {
  return {
    name: token.name,
    remain_quota: String(token.remain_quota),
    unlimited_quota: token.unlimited_quota,
    expired_time: token.expired_time === NEVER_EXPIRES ? '' : formatTimestamp(token.expired_time),
    count: '1',
    model_limits_enabled: token.model_limits_enabled,
    model_limits: token.model_limits ? token.model_limits.split(',').filter(Boolean) : [],
    allow_ips: token.allow_ips ?? '',
    model_fallbacks: token.model_fallbacks ?? [],
    group: token.group ?? '',
    response_cache: token.response_cache,
    response_cache_nondeterministic: token.response_cache_nondeterministic,
    budget: toBudgetForm(token),
  };
}

/** Create (with a bulk count) or edit a token. */
export function TokenDrawer({ target, onClose, onSaved }: { target: 'add' | number | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { status } = useStatus();
  const isNew = target === 'add';
  const [groups, setGroups] = useState<GroupChoices>({});
  const [models, setModels] = useState<string[]>([]);
  const defaultGroup = status.default_use_auto_group ? 'auto' : '';
  const { control, handleSubmit, reset, setValue, formState } = useForm<TokenForm>({ defaultValues: blankToken(defaultGroup) });
  const unlimited = useWatch({ control, name: 'unlimited_quota' });
  const quota = useWatch({ control, name: 'remain_quota' });
  const limitsEnabled = useWatch({ control, name: 'model_limits_enabled' });

  const loaded = useDrawerRecord(target, { load: tokensApi.get, fill: (token) => reset(token ? toForm(token) : blankToken(defaultGroup)), onClose }, [defaultGroup]);

  useEffect(() => {
    if (target === null) return;
    let active = true;
    void Promise.all([tokensApi.groups(), tokensApi.models()]).then(([groupResult, modelResult]) => {
      if (!active) return;
      if (groupResult.ok) setGroups(groupResult.data ?? {});
      if (modelResult.ok) setModels(modelResult.data ?? []);
    });
    return () => {
      active = false;
    };
  }, [target]);

  async function onSubmit(values: TokenForm) {
    const expiry = values.expired_time.trim() ? parseDateTime(values.expired_time) : null;
    const body: TokenWrite = {
      name: values.name.trim(),
      remain_quota: values.unlimited_quota ? 0 : Number(values.remain_quota),
      unlimited_quota: values.unlimited_quota,
      expired_time: expiry ? Math.floor(expiry.getTime() / 1000) : NEVER_EXPIRES,
      model_limits_enabled: values.model_limits_enabled,
      model_limits: values.model_limits.join(','),
      allow_ips: values.allow_ips.trim(),
      model_fallbacks: values.model_fallbacks,
      group: values.group,
      response_cache: values.response_cache,
      response_cache_nondeterministic: values.response_cache_nondeterministic,
      ...fromBudgetForm(values.budget),
    };
    if (isNew) {
      const result = await tokensApi.create({ ...body, count: Number(values.count) });
      if (!result.ok) return;
      toast.success(t('tokens:drawer.created', { count: result.data?.length ?? 1 }));
    } else if (typeof target === 'number') {
      // The cap moves by what the user changed, against the value the form loaded (see TokensService.update).
      const quota = values.unlimited_quota ? {} : { remain_quota: body.remain_quota, original_remain_quota: Number(formState.defaultValues?.remain_quota ?? body.remain_quota) };
      const result = await tokensApi.update({ ...body, remain_quota: undefined, ...quota, id: target });
      if (!result.ok) return;
      toast.success(t('tokens:drawer.updated'));
    }
    onSaved();
    onClose();
  }

  const groupOptions = Object.entries(groups);
  const quotaNumber = /^\d+$/.test(quota ?? '') ? Number(quota) : 0;

  return (
    <SideDrawer
      open={target !== null}
      onClose={onClose}
      title={isNew ? t('tokens:drawer.addTitle') : t('tokens:drawer.editTitle')}
      testId="token-drawer"
      actions={<DrawerFormActions formId="token-form" disabled={!loaded || formState.isSubmitting} onCancel={onClose} submitTestId="token-submit" />}
    >
      {!loaded ? (
        <DrawerLoading />
      ) : (
        <Box component="form" id="token-form" noValidate onSubmit={handleSubmit(onSubmit)}>
          <Stack spacing={2.25}>
            <FormTextField
              name="name"
              control={control}
              label={t('tokens:fields.name')}
              rules={{ maxLength: { value: 30, message: 'tokens:validation.nameTooLong' } }}
              slotProps={{ htmlInput: { 'data-testid': 'token-name' } }}
            />
            <FormTextField
              name="group"
              control={control}
              select
              label={t('tokens:fields.group')}
              data-testid="token-group"
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">{t('tokens:drawer.userGroup')}</MenuItem>
              {status.default_use_auto_group && <MenuItem value="auto">{t('tokens:drawer.autoGroup')}</MenuItem>}
              {groupOptions.map(([name, choice]) => (
                <MenuItem key={name} value={name}>
                  {name} · {choice.desc} · {t('tokens:drawer.ratio', { ratio: choice.ratio })}
                </MenuItem>
              ))}
            </FormTextField>

            <Divider textAlign="left">
              <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
                {t('tokens:drawer.sectionQuota')}
              </Typography>
            </Divider>
            <Controller
              name="unlimited_quota"
              control={control}
              render={({ field }) => (
                <FormControlLabel
                  control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} data-testid="token-unlimited" />}
                  label={t('tokens:fields.unlimited')}
                />
              )}
            />
            {!unlimited && (
              <>
                <FormTextField
                  name="remain_quota"
                  control={control}
                  label={t('tokens:fields.quota')}
                  helperText={t('tokens:drawer.quotaHelp', { value: renderQuota(quotaNumber) })}
                  rules={{ validate: (value) => /^\d+$/.test(String(value).trim()) || 'tokens:validation.quota' }}
                  slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'token-quota' } }}
                />
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                  {QUICK_QUOTAS.map((value) => (
                    <Chip key={value} size="small" variant="outlined" clickable label={renderQuota(value)} onClick={() => setValue('remain_quota', String(value), { shouldValidate: true, shouldDirty: true })} />
                  ))}
                </Stack>
              </>
            )}

            <Divider textAlign="left">
              <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
                {t('tokens:drawer.sectionExpiry')}
              </Typography>
            </Divider>
            <FormTextField
              name="expired_time"
              control={control}
              label={t('tokens:fields.expiry')}
              placeholder={t('tokens:drawer.expiryNever')}
              helperText={t('tokens:drawer.expiryHelp')}
              rules={{ validate: (value) => !String(value).trim() || parseDateTime(String(value)) !== null || 'tokens:validation.expiryFormat' }}
              slotProps={{ htmlInput: { 'data-testid': 'token-expiry' }, inputLabel: { shrink: true } }}
            />
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
              {QUICK_EXPIRIES.map((pick) => (
                <Chip
                  key={pick.key}
                  size="small"
                  variant="outlined"
                  clickable
                  label={t(`tokens:drawer.quickExpiry.${pick.key}`)}
                  onClick={() => setValue('expired_time', pick.offset ? formatDateTime(new Date(Date.now() + pick.offset)) : '', { shouldValidate: true, shouldDirty: true })}
                  data-testid={`token-expiry-${pick.key}`}
                />
              ))}
            </Stack>

            {isNew && (
              <>
                <FormTextField
                  name="count"
                  control={control}
                  label={t('tokens:fields.count')}
                  helperText={t('tokens:drawer.countHelp')}
                  rules={{ validate: (value) => (/^\d+$/.test(String(value).trim()) && Number(value) > 0) || 'tokens:validation.count' }}
                  slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'token-count' } }}
                />
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                  {QUICK_COUNTS.map((count) => (
                    <Chip key={count} size="small" variant="outlined" clickable label={t('tokens:drawer.quickCount', { count })} onClick={() => setValue('count', String(count), { shouldValidate: true })} />
                  ))}
                </Stack>
              </>
            )}

            <Divider textAlign="left">
              <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
                {t('tokens:drawer.sectionAccess')}
              </Typography>
            </Divider>
            <Controller
              name="model_limits_enabled"
              control={control}
              render={({ field }) => (
                <FormControlLabel
                  control={<Switch checked={field.value} onChange={(event) => field.onChange(event.target.checked)} data-testid="token-model-limits-enabled" />}
                  label={t('tokens:fields.modelLimits')}
                />
              )}
            />
            {limitsEnabled && (
              <Controller
                name="model_limits"
                control={control}
                render={({ field }) => (
                  <Autocomplete
                    multiple
                    size="small"
                    disableCloseOnSelect
                    options={models}
                    value={field.value}
                    onChange={(_, next) => field.onChange(next)}
                    renderInput={(params) => <TextField {...params} label={t('tokens:fields.models')} helperText={t('tokens:drawer.modelLimitsHelp')} />}
                  />
                )}
              />
            )}
            <FormTextField
              name="allow_ips"
              control={control}
              label={t('tokens:fields.allowIps')}
              placeholder={t('tokens:drawer.allowIpsPlaceholder')}
              helperText={t('tokens:drawer.allowIpsHelp')}
              multiline
              minRows={2}
            />
            <Controller
              name="model_fallbacks"
              control={control}
              rules={{ validate: (value) => value.length <= MAX_FALLBACK_MODELS || 'tokens:validation.modelFallbacks' }}
              render={({ field, fieldState }) => (
                <Autocomplete
                  multiple
                  freeSolo
                  size="small"
                  disableCloseOnSelect
                  options={models}
                  value={field.value}
                  onChange={(_, next) => field.onChange(next.map((model) => model.trim()).filter(Boolean))}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label={t('tokens:fields.modelFallbacks')}
                      error={Boolean(fieldState.error)}
                      helperText={t(fieldState.error?.message ?? 'tokens:drawer.modelFallbacksHelp')}
                      slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'token-model-fallbacks' } }}
                    />
                  )}
                />
              )}
            />

            <Divider textAlign="left">
              <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
                {t('tokens:drawer.sectionCache')}
              </Typography>
            </Divider>
            <FormSwitch name="response_cache" control={control} label={t('tokens:fields.responseCache')} helperText={t('tokens:drawer.responseCacheHelp')} testId="token-response-cache" />
            <FormSwitch
              name="response_cache_nondeterministic"
              control={control}
              label={t('tokens:fields.responseCacheNondeterministic')}
              helperText={t('tokens:drawer.responseCacheNondeterministicHelp')}
              testId="token-response-cache-nondeterministic"
            />

            <Divider textAlign="left">
              <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
                {t('budget:section')}
              </Typography>
            </Divider>
            <BudgetFields control={control} testId="token-budget" />
          </Stack>
        </Box>
      )}
    </SideDrawer>
  );
}
