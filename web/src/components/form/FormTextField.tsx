import { TextField, type TextFieldProps } from '@mui/material';
import { useController, type Control, type FieldPath, type FieldValues, type RegisterOptions } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

type FormTextFieldProps<T extends FieldValues> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error'> & {
  name: FieldPath<T>;
  control: Control<T>;
  /** Validation rules whose messages are i18n keys (`namespace:key`), translated here. */
  rules?: RegisterOptions<T, FieldPath<T>>;
  /** Interpolation values for the translated error message. */
  messageValues?: Record<string, unknown>;
};

/** A MUI TextField bound to react-hook-form; error messages are i18n keys translated on display. */
export function FormTextField<T extends FieldValues>({ name, control, rules, messageValues, helperText, ...props }: FormTextFieldProps<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ name, control, rules });
  const error = fieldState.error?.message;
  return (
    <TextField
      {...props}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={!!fieldState.error}
      helperText={error ? t(error, messageValues) : helperText}
    />
  );
}
