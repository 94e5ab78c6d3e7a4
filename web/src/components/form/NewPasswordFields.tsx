import { get, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FormTextField } from './FormTextField';

/** The server's rule for every password it stores (PasswordField in src/modules/users/dto/fields.ts). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;

interface NewPasswordFieldsProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  /** Translated label of the password field. */
  label: string;
  /** The "type it again" field, which must match; left out where an administrator sets the password. */
  confirmName?: FieldPath<T>;
  confirmLabel?: string;
  placeholder?: string;
  helperText?: string;
  /** An empty field is allowed: it keeps the current password (edits). */
  optional?: boolean;
  /** i18n key shown when a required field is left empty, for forms that word it their own way. */
  emptyMessage?: string;
}

/**
 * A new password, and optionally its confirmation, bound to react-hook-form with the server's rules:
 * 8 to 20 characters, and the confirmation equal to the password.
 */
export function NewPasswordFields<T extends FieldValues>({
  control,
  name,
  label,
  confirmName,
  confirmLabel,
  placeholder,
  helperText,
  optional,
  emptyMessage = 'auth:validation.passwordRequired',
}: NewPasswordFieldsProps<T>) {
  return (
    <>
      <FormTextField
        name={name}
        control={control}
        rules={{
          // Length rules skip an empty value, so an optional field may stay empty.
          required: !optional && emptyMessage,
          minLength: { value: PASSWORD_MIN_LENGTH, message: 'auth:validation.passwordTooShort' },
          maxLength: { value: PASSWORD_MAX_LENGTH, message: 'auth:validation.passwordTooLong' },
        }}
        label={label}
        placeholder={placeholder}
        helperText={helperText}
        type="password"
        autoComplete="new-password"
      />
      {confirmName && (
        <FormTextField
          name={confirmName}
          control={control}
          rules={{ validate: (value, values) => value === get(values, name) || 'auth:validation.passwordMismatch' }}
          label={confirmLabel}
          type="password"
          autoComplete="new-password"
        />
      )}
    </>
  );
}
