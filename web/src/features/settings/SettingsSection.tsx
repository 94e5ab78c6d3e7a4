import type { ReactNode } from 'react';
import { Box, Button, Card, CardContent, Divider, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { OptionSection } from './useOptionSection';

interface SettingsSectionProps {
  title: string;
  description?: string;
  /** The section's form; gives the Save button. Absent for sections that act without saving options. */
  section?: OptionSection;
  /** Buttons shown beside Save. */
  actions?: ReactNode;
  /** A part below the Save button that acts on its own (e.g. clearing logs). */
  footer?: ReactNode;
  children: ReactNode;
  /** data-testid of the card, for the browser tests. */
  testId?: string;
}

/** One titled card of settings with its own Save button (each section saves only its own keys). */
export function SettingsSection({ title, description, section, actions, footer, children, testId }: SettingsSectionProps) {
  const { t } = useTranslation();
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {description && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {description}
          </Typography>
        )}
        <Stack spacing={2} sx={{ mt: 2 }}>
          {children}
        </Stack>
        {(section || actions) && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2 }}>
            {section && (
              <Button
                variant="contained"
                onClick={() => void section.save()}
                // Keeps focus in the field being edited: its blur check would show or hide a message
                // and move this button between press and release, losing the click. Save checks every field anyway.
                onMouseDown={(event) => event.preventDefault()}
                disabled={section.saving}
              >
                {t('settings:actions.save', { title })}
              </Button>
            )}
            {actions}
          </Stack>
        )}
        {footer && (
          <>
            <Divider sx={{ my: 2 }} />
            {footer}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Fields side by side on wide screens, one per row on a phone. */
export function FieldGrid({ children, columns = 3 }: { children: ReactNode; columns?: 2 | 3 | 4 }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        alignItems: 'start',
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: `repeat(${columns}, minmax(0, 1fr))` },
      }}
    >
      {children}
    </Box>
  );
}
