import { Checkbox } from '@mui/material';

interface SelectAllCheckboxProps<Id extends number | string> {
  /** The ids of the rows on screen. */
  ids: Id[];
  selected: ReadonlySet<Id>;
  onChange(next: Set<Id>): void;
  label: string;
  testId?: string;
  /**
   * The selection outlives paging and filtering: the box then adds or removes only the rows on
   * screen and leaves the others chosen. Without it, ticking the box selects exactly the rows on screen.
   */
  keepOffScreen?: boolean;
}

/** The header checkbox of a selectable table: all, some (indeterminate) or none of the rows on screen. */
export function SelectAllCheckbox<Id extends number | string>({ ids, selected, onChange, label, testId, keepOffScreen }: SelectAllCheckboxProps<Id>) {
  const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));

  function toggle() {
    if (!keepOffScreen) return onChange(allSelected ? new Set() : new Set(ids));
    const next = new Set(selected);
    ids.forEach((id) => (allSelected ? next.delete(id) : next.add(id)));
    onChange(next);
  }

  return (
    <Checkbox
      size="small"
      checked={allSelected}
      indeterminate={!allSelected && ids.some((id) => selected.has(id))}
      onChange={toggle}
      slotProps={{ input: { 'aria-label': label } }}
      data-testid={testId}
    />
  );
}
