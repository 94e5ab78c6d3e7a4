import { Box, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { HtmlContent } from '../components/SafeHtml';
import { useStatus } from '../features/status/StatusProvider';

/**
 * Custom footer HTML (sanitised) when set, otherwise a credit line with the version. The status
 * context re-renders this when the status arrives, which replaces the spec's five 200 ms re-checks.
 */
export function Footer() {
  const { t } = useTranslation();
  const { status } = useStatus();
  return (
    <Box
      component="footer"
      sx={{ borderTop: 1, borderColor: 'divider', py: 2.5, px: 3, textAlign: 'center', color: 'text.secondary', fontSize: 14 }}
      data-testid="footer"
    >
      {status.footer_html ? (
        <HtmlContent html={status.footer_html} />
      ) : (
        <Typography variant="body2">
          {t('shell:footer.credit', { name: status.system_name || t('shell:defaultSystemName') })}
          {status.version && ` · ${status.version}`}
          {' · '}
          <Link href="/about" underline="hover" color="inherit">
            {t('shell:nav.about')}
          </Link>
        </Typography>
      )}
    </Box>
  );
}
