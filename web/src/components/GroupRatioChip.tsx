import { Chip } from '@mui/material';

/** The spec's group-ratio scale: above 5 red, above 3 orange, above 1 blue, else green. */
export function groupRatioColor(ratio: number): 'error' | 'warning' | 'info' | 'success' {
  if (ratio > 5) return 'error';
  if (ratio > 3) return 'warning';
  if (ratio > 1) return 'info';
  return 'success';
}

/** A group ratio ("1.5×") coloured on the spec's scale, so an expensive group stands out at a glance. */
export function GroupRatioChip({ ratio, label, testId }: { ratio: number; label?: string; testId?: string }) {
  const color = groupRatioColor(ratio);
  return <Chip size="small" variant="outlined" color={color} label={label ?? `${ratio}×`} data-testid={testId} data-ratio-color={color} />;
}
