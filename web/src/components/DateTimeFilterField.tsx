import { TextField } from '@mui/material';
import { fromInputValue, toInputValue } from '../lib/time';

interface DateTimeFilterFieldProps {
  label: string;
  /** Unix seconds; 0 means not set. */
  value: number;
  onChange: (seconds: number) => void;
  testId: string;
  size?: 'small' | 'medium';
}

/** A list filter's date and time, in local time, as unix seconds (the log and audit pages' from/until). */
export function DateTimeFilterField({ label, value, onChange, testId, size }: DateTimeFilterFieldProps) {
  return (
    <TextField
      type="datetime-local"
      label={label}
      value={toInputValue(value)}
      onChange={(event) => onChange(fromInputValue(event.target.value))}
      size={size}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
    />
  );
}
