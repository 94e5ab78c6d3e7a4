import type { MouseEvent } from 'react';
import { IconButton, Tooltip } from '@mui/material';
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
