import type { TextFieldProps } from '@mui/material';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { FormTextField } from './FormTextField';

type FormJsonFieldProps<T extends FieldValues> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error' | 'multiline'> & {
  name: FieldPath<T>;
  control: Control<T>;
  /** Let an empty field pass (for settings where empty means "none"). */
  allowEmpty?: boolean;
};

export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A monospace text area that must hold valid JSON. The check runs when the form validates:
 * on blur in forms created with `mode: 'onBlur'` (the settings sections), and on save.
 */
export function FormJsonField<T extends FieldValues>({ name, control, allowEmpty, minRows = 4, ...props }: FormJsonFieldProps<T>) {
  return (
    <FormTextField
      {...props}
      name={name}
      control={control}
      multiline
      minRows={minRows}
      maxRows={24}
      slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 } } }}
      rules={{
        validate: (raw: unknown) => {
          const text = String(raw ?? '');
          if (allowEmpty && text.trim() === '') return true;
          return isJsonText(text) || 'common:validation.json';
        },
      }}
    />
  );
}
