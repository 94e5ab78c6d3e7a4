import { useState } from 'react';
import type { ReactNode } from 'react';
import { Autocomplete, Button, Stack, TextField } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { toast } from '../../lib/toast';

/** Splits a custom entry on commas and trims it; names already chosen are reported, new ones returned. */
export function parseCustomModels(entry: string, existing: string[]): { added: string[]; duplicates: string[] } {
  const names = [...new Set(entry.split(',').map((name) => name.trim()).filter(Boolean))];
  return { added: names.filter((name) => !existing.includes(name)), duplicates: names.filter((name) => existing.includes(name)) };
}

interface ModelPickerProps {
  value: string[];
  onChange: (models: string[]) => void;
  options: string[];
  label: string;
  error?: string;
  testId?: string;
  /** Extra buttons beside the custom entry (fetch from upstream, clear). */
  actions?: ReactNode;
}

/** Models as chips: pick known names, or type custom ones (comma-separated) and add them. */
export function ModelPicker({ value, onChange, options, label, error, testId, actions }: ModelPickerProps) {
  const { t } = useTranslation();
  const [custom, setCustom] = useState('');

  function addCustom() {
    const { added, duplicates } = parseCustomModels(custom, value);
    if (duplicates.length > 0) toast.warning(t('channels:models.duplicates', { names: duplicates.join(', ') }));
    if (added.length > 0) onChange([...value, ...added]);
    setCustom('');
  }

  return (
    <Stack spacing={1}>
      <Autocomplete
        multiple
        size="small"
        disableCloseOnSelect
        options={options}
        value={value}
        onChange={(_, next) => onChange(next)}
        renderInput={(params) => (
          <TextField
            {...params}
            label={label}
            error={!!error}
            helperText={error ?? t('channels:models.count', { count: value.length })}
            slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId } }}
          />
        )}
        slotProps={{ listbox: { sx: { maxHeight: 280 } } }}
      />
      <Stack direction="row" spacing={1}>
        <TextField
          placeholder={t('channels:models.customPlaceholder')}
          value={custom}
          onChange={(event) => setCustom(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              addCustom();
            }
          }}
          slotProps={{ htmlInput: { 'data-testid': testId ? `${testId}-custom` : undefined, 'aria-label': t('channels:models.customPlaceholder') } }}
        />
        <Button variant="outlined" startIcon={<AddIcon />} onClick={addCustom} sx={{ flexShrink: 0 }} data-testid={testId ? `${testId}-custom-add` : undefined}>
          {t('channels:models.add')}
        </Button>
      </Stack>
      {actions && <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>{actions}</Stack>}
    </Stack>
  );
}
