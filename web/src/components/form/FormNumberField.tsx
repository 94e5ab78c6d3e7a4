import type { TextFieldProps } from '@mui/material';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { FormTextField } from './FormTextField';

type FormNumberFieldProps<T extends FieldValues> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error' | 'type'> & {
  name: FieldPath<T>;
  control: Control<T>;
  min?: number;
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
  step?: number | 'any';
};

/**
 * A number input kept as a string in the form (option values are strings). An empty field,
 * a non-number or a value outside [min, max] is an error, translated from `common:validation.*`.
 */
export function FormNumberField<T extends FieldValues>({ name, control, min, max, integer, step, ...props }: FormNumberFieldProps<T>) {
  return (
    <FormTextField
      {...props}
      name={name}
      control={control}
      type="number"
      slotProps={{ htmlInput: { min, max, step: step ?? (integer ? 1 : 'any') } }}
      messageValues={{ min, max }}
      rules={{
        validate: (raw: unknown) => {
          const text = String(raw ?? '').trim();
          if (text === '') return 'common:validation.required';
          const value = Number(text);
          if (!Number.isFinite(value)) return 'common:validation.number';
          if (integer && !Number.isInteger(value)) return 'common:validation.integer';
          if (min !== undefined && value < min) return 'common:validation.min';
          if (max !== undefined && value > max) return 'common:validation.max';
          return true;
        },
      }}
    />
  );
}
