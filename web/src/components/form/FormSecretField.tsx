import type { TextFieldProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { FormTextField } from './FormTextField';

type FormSecretFieldProps<T extends FieldValues> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error' | 'type'> & {
  name: FieldPath<T>;
  control: Control<T>;
  /** Whether the server holds a value; it is never shown back, only said. */
  isSet: boolean;
};

/**
 * A password-style input for a stored secret. It always starts empty; the placeholder, always
 * shown, says whether a value is stored, and leaving it empty keeps that value.
 */
export function FormSecretField<T extends FieldValues>({ isSet, helperText, ...props }: FormSecretFieldProps<T>) {
  const { t } = useTranslation();
  return (
    <FormTextField
      {...props}
      type="password"
      autoComplete="new-password"
      placeholder={isSet ? t('common:secret.setPlaceholder') : t('common:secret.emptyPlaceholder')}
      helperText={helperText ?? t('common:secret.keepHint')}
      // The label sits above the box, so the placeholder (whether a value is stored) shows without focus.
      slotProps={{ inputLabel: { shrink: true }, ...props.slotProps }}
    />
  );
}
