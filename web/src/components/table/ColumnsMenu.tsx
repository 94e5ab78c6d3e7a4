import { useState } from 'react';
import { Button, Checkbox, FormControlLabel, Menu, MenuItem } from '@mui/material';
import ViewColumnOutlinedIcon from '@mui/icons-material/ViewColumnOutlined';
import { readJson, writeJson } from '../../lib/storage';

/** A column the user may hide; `label` is already translated. */
export interface ColumnOption {
  key: string;
  label: string;
}

/**
 * Which columns are visible, remembered in local storage under `storageKey` as {column: boolean}.
 * Columns missing from the stored map (new ones, or `defaultHidden`) fall back to their default.
 */
export function useColumnVisibility(storageKey: string, defaultHidden: string[] = []) {
  const [visibility, setVisibility] = useState<Record<string, boolean>>(() => readJson<Record<string, boolean>>(storageKey) ?? {});
  const isVisible = (key: string) => visibility[key] ?? !defaultHidden.includes(key);
  const toggle = (key: string) => {
    const next = { ...visibility, [key]: !isVisible(key) };
    writeJson(storageKey, next);
    setVisibility(next);
  };
  return { isVisible, toggle };
}

interface ColumnsMenuProps {
  /** The button's text. */
  label: string;
  columns: ColumnOption[];
  isVisible: (key: string) => boolean;
  onToggle: (key: string) => void;
}

/** A "columns" button opening a checklist of the table's optional columns. */
export function ColumnsMenu({ label, columns, isVisible, onToggle }: ColumnsMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button variant="outlined" color="inherit" startIcon={<ViewColumnOutlinedIcon />} onClick={(event) => setAnchor(event.currentTarget)} data-testid="columns-menu">
        {label}
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {columns.map((column) => (
          <MenuItem key={column.key} dense onClick={() => onToggle(column.key)} data-testid={`column-toggle-${column.key}`}>
            <FormControlLabel
              control={<Checkbox size="small" checked={isVisible(column.key)} />}
              label={column.label}
              sx={{ pointerEvents: 'none', m: 0 }}
            />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
