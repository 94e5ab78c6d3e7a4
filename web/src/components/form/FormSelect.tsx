import { MenuItem, type TextFieldProps } from '@mui/material';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { FormTextField } from './FormTextField';

export interface SelectChoice {
  value: string;
  /** Shown as given; translate before passing. */
  label: string;
}

type FormSelectProps<T extends FieldValues> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error' | 'select' | 'children'> & {
  name: FieldPath<T>;
  control: Control<T>;
  choices: SelectChoice[];
};

/** A MUI select (TextField select) bound to a string react-hook-form field. */
export function FormSelect<T extends FieldValues>({ choices, ...props }: FormSelectProps<T>) {
  return (
    <FormTextField {...props} select>
      {choices.map((choice) => (
        <MenuItem key={choice.value} value={choice.value}>
          {choice.label}
        </MenuItem>
      ))}
    </FormTextField>
  );
}
