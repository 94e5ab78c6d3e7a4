import type { MouseEvent } from 'react';
import { Button, IconButton, Tooltip } from '@mui/material';
import type { SvgIconComponent } from '@mui/icons-material';

interface RowIconActionProps {
  /** Translated tooltip text. */
  title: string;
  icon: SvgIconComponent;
  onClick: (event: MouseEvent<HTMLElement>) => void;
  testId: string;
  color?: 'error';
  disabled?: boolean;
}

/** A small icon button with a tooltip, for a table row's actions column. */
export function RowIconAction({ title, icon: Icon, onClick, testId, color, disabled }: RowIconActionProps) {
  return (
    <Tooltip title={title}>
      <IconButton size="small" color={color} onClick={onClick} disabled={disabled} data-testid={testId}>
        <Icon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

interface RowTextActionProps {
  /** Translated button text. */
  label: string;
  onClick: () => void;
  testId: string;
  color?: 'warning' | 'success' | 'error';
  icon?: SvgIconComponent;
  disabled?: boolean;
}

/** A small text button for a table row's actions column, for the actions that read better as words. */
export function RowTextAction({ label, onClick, testId, color, icon: Icon, disabled }: RowTextActionProps) {
  return (
    <Button size="small" color={color} startIcon={Icon && <Icon fontSize="small" />} disabled={disabled} onClick={onClick} data-testid={testId} sx={{ minWidth: 0 }}>
      {label}
    </Button>
  );
}
