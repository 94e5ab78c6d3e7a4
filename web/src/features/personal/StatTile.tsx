import { Box, Typography } from '@mui/material';

export function StatTile({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Box sx={{ p: 2, borderRadius: 2, bgcolor: 'action.hover', minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" noWrap data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}
