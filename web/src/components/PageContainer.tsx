import type { ReactNode } from 'react';
import { Container } from '@mui/material';

export function PageContainer({ children, maxWidth = 'lg' }: { children: ReactNode; maxWidth?: 'sm' | 'md' | 'lg' | 'xl' }) {
  return (
    <Container maxWidth={maxWidth} sx={{ py: { xs: 2, sm: 4 }, px: { xs: 2, sm: 3 } }}>
      {children}
    </Container>
  );
}
