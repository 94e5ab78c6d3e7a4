import { FormControlLabel, FormHelperText, Stack, Switch } from '@mui/material';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

interface FormSwitchProps<T extends FieldValues> {
  name: FieldPath<T>;
  control: Control<T>;
  label: string;
  helperText?: string;
  disabled?: boolean;
  /** Called instead of changing the value when it returns false (e.g. to ask for a confirmation first). */
  onBeforeChange?: (next: boolean) => boolean;
  testId?: string;
}

/** A MUI Switch bound to a boolean react-hook-form field. */
export function FormSwitch<T extends FieldValues>({ name, control, label, helperText, disabled, onBeforeChange, testId }: FormSwitchProps<T>) {
  const { field } = useController({ name, control });
  return (
    <Stack>
      <FormControlLabel
        label={label}
        disabled={disabled}
        control={
          <Switch
            name={field.name}
            checked={!!field.value}
            data-testid={testId}
            slotProps={{ input: { ref: field.ref } }}
            onBlur={field.onBlur}
            onChange={(_, checked) => {
              if (onBeforeChange && !onBeforeChange(checked)) return;
              field.onChange(checked);
            }}
          />
        }
      />
      {helperText && <FormHelperText sx={{ mt: -0.5, mb: 0.5 }}>{helperText}</FormHelperText>}
    </Stack>
  );
}
