import { useEffect, useState } from 'react';
import { TextField } from '@mui/material';

interface InlineNumberFieldProps {
  value: number;
  /** Returns an i18n-translated error for an invalid entry, or null. */
  validate: (value: string) => string | null;
  onCommit: (value: number) => Promise<boolean>;
  label: string;
  testId?: string;
  disabled?: boolean;
}

/** A compact number edited in place: saved on Enter or when focus leaves, restored when invalid or refused. */
export function InlineNumberField({ value, validate, onCommit, label, testId, disabled }: InlineNumberFieldProps) {
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(String(value)), [value]);

  async function commit() {
    if (text.trim() === String(value)) {
      setError(null);
      return;
    }
    const problem = validate(text.trim());
    setError(problem);
    if (problem) return;
    const saved = await onCommit(Number(text.trim()));
    if (!saved) setText(String(value));
  }

  return (
    <TextField
      value={text}
      disabled={disabled}
      onChange={(event) => setText(event.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(event) => {
        if (event.key === 'Enter') (event.target as HTMLInputElement).blur();
        if (event.key === 'Escape') {
          setText(String(value));
          setError(null);
        }
      }}
      error={!!error}
      helperText={error ?? undefined}
      fullWidth={false}
      slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-label': label, 'data-testid': testId, style: { padding: '4px 8px', width: 56, textAlign: 'right' } } }}
      sx={{ '& .MuiFormHelperText-root': { mx: 0, maxWidth: 120, whiteSpace: 'normal' } }}
    />
  );
}

export const INTEGER = /^-?\d+$/;
export const MIN_PRIORITY = -999;

export const isValidPriority = (text: string) => INTEGER.test(text) && Number(text) >= MIN_PRIORITY;
export const isValidWeight = (text: string) => /^\d+$/.test(text);
