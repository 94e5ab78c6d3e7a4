import { Button, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { renderQuota } from '../../lib/quota';
import { BUDGET_PERIODS, validateBudget, type BudgetForm } from './budget';

/**
 * Budget windows and RPM/TPM limits, bound to the `budget` field of a token or user form
 * (one controller for the whole part: its rules cross rows, no period twice). A plan has
 * windows only: `limits={false}` leaves the two limits out.
 */
export function BudgetFields<T extends FieldValues & { budget: BudgetForm }>({ control, testId, limits = true }: { control: Control<T>; testId: string; limits?: boolean }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name: 'budget' as FieldPath<T>, rules: { validate: (value) => validateBudget(value as BudgetForm) } });
  const budget = field.value as BudgetForm;
  const change = (next: Partial<BudgetForm>) => field.onChange({ ...budget, ...next });
  const unused = BUDGET_PERIODS.filter((period) => !budget.windows.some((window) => window.period === period));
  const error = fieldState.error?.message;

  return (
    <Stack spacing={1.5} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {t(limits ? 'budget:help' : 'budget:helpWindows')}
      </Typography>
      {budget.windows.map((window, index) => (
        <Stack key={window.period} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            select
            size="small"
            label={t('budget:period')}
            value={window.period}
            sx={{ minWidth: 120 }}
            onChange={(event) => change({ windows: budget.windows.map((item, at) => (at === index ? { ...item, period: event.target.value as BudgetForm['windows'][number]['period'] } : item)) })}
            slotProps={{ htmlInput: { 'data-testid': `${testId}-period-${index}` } }}
          >
            {BUDGET_PERIODS.map((period) => (
              <MenuItem key={period} value={period} disabled={period !== window.period && !unused.includes(period)}>
                {t(`budget:periods.${period}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            fullWidth
            label={t('budget:quota')}
            value={window.quota}
            helperText={/^\d+$/.test(window.quota.trim()) ? renderQuota(Number(window.quota)) : ' '}
            onChange={(event) => change({ windows: budget.windows.map((item, at) => (at === index ? { ...item, quota: event.target.value } : item)) })}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': `${testId}-quota-${index}` } }}
          />
          <IconButton aria-label={t('budget:remove')} onClick={() => change({ windows: budget.windows.filter((_, at) => at !== index) })} data-testid={`${testId}-remove-${index}`}>
            <DeleteOutlinedIcon fontSize="small" />
          </IconButton>
        </Stack>
      ))}
      {unused.length > 0 && (
        <Button size="small" startIcon={<AddIcon />} sx={{ alignSelf: 'flex-start' }} onClick={() => change({ windows: [...budget.windows, { period: unused[0], quota: '' }] })} data-testid={`${testId}-add`}>
          {t('budget:add')}
        </Button>
      )}
      {limits && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <TextField
            size="small"
            fullWidth
            label={t('budget:rpm')}
            value={budget.rpm_limit}
            helperText={t('budget:noneHelp')}
            onChange={(event) => change({ rpm_limit: event.target.value })}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': `${testId}-rpm` } }}
          />
          <TextField
            size="small"
            fullWidth
            label={t('budget:tpm')}
            value={budget.tpm_limit}
            helperText={t('budget:noneHelp')}
            onChange={(event) => change({ tpm_limit: event.target.value })}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': `${testId}-tpm` } }}
          />
        </Stack>
      )}
      {error && (
        <Typography variant="caption" color="error" data-testid={`${testId}-error`}>
          {t(error)}
        </Typography>
      )}
    </Stack>
  );
}
