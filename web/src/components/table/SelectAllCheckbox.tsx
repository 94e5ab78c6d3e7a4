import { Checkbox } from '@mui/material';

interface SelectAllCheckboxProps {
  /** The ids of the rows on screen. */
  ids: number[];
  selected: Set<number>;
  onChange(next: Set<number>): void;
  label: string;
  testId?: string;
}

/** The header checkbox of a selectable table: all, some (indeterminate) or none of the rows on screen. */
export function SelectAllCheckbox({ ids, selected, onChange, label, testId }: SelectAllCheckboxProps) {
  const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));
  return (
    <Checkbox
      size="small"
      checked={allSelected}
      indeterminate={!allSelected && ids.some((id) => selected.has(id))}
      onChange={() => onChange(allSelected ? new Set() : new Set(ids))}
      slotProps={{ input: { 'aria-label': label } }}
      data-testid={testId}
    />
  );
}
