import { MenuItem, TextField, type SxProps, type Theme } from '@mui/material';

interface GroupFilterProps {
  /** Translated field label. */
  label: string;
  /** Translated text of the empty choice, which means "any group". */
  allLabel: string;
  value: string;
  onChange: (group: string) => void;
  groups: string[];
  /** `data-testid` of the field's root element. */
  testId: string;
  sx?: SxProps<Theme>;
}

/** A table toolbar's group dropdown: one entry a group, plus an empty "all groups" choice. */
export function GroupFilter({ label, allLabel, value, onChange, groups, testId, sx }: GroupFilterProps) {
  return (
    <TextField select label={label} value={value} onChange={(event) => onChange(event.target.value)} sx={sx} data-testid={testId}>
      <MenuItem value="">{allLabel}</MenuItem>
      {groups.map((name) => (
        <MenuItem key={name} value={name}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
}
