import { Box, Button, Stack } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';

/**
 * One field for a 6-digit authenticator code (or, where `allowRecovery`, a recovery code)
 * and a submit button. Used by the login's second step and the two-factor dialogs.
 */
export function CodeForm({ allowRecovery, submitLabel, onSubmit, testId }: { allowRecovery: boolean; submitLabel: string; onSubmit: (code: string) => Promise<unknown>; testId: string }) {
  const { t } = useTranslation();
  const { control, handleSubmit, formState, reset } = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const rule = allowRecovery
    ? { required: 'identity:validation.codeRequired' }
    : { required: 'identity:validation.codeRequired', pattern: { value: /^\s*\d{6}\s*$/, message: 'identity:validation.sixDigits' } };

  async function submit(values: { code: string }) {
    await onSubmit(values.code.trim());
    reset({ code: '' });
  }

  return (
    <Box component="form" noValidate onSubmit={handleSubmit(submit)} data-testid={testId}>
      <Stack spacing={2}>
        <FormTextField
          name="code"
          control={control}
          rules={rule}
          label={t(allowRecovery ? 'identity:codeOrRecovery' : 'identity:code')}
          helperText={allowRecovery ? t('identity:codeOrRecoveryHint') : undefined}
          autoComplete="one-time-code"
          autoFocus
          slotProps={{ htmlInput: { inputMode: allowRecovery ? 'text' : 'numeric', 'data-testid': `${testId}-input` } }}
        />
        <Button type="submit" variant="contained" disabled={formState.isSubmitting} data-testid={`${testId}-submit`}>
          {submitLabel}
        </Button>
      </Stack>
    </Box>
  );
}
