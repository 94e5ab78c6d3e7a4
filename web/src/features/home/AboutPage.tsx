import { Box, Card, CardContent, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { isUrl, MarkdownContent, SandboxedPage } from '../../components/SafeHtml';
import { useStatus } from '../status/StatusProvider';
import { homeApi } from './api';
import { useContent } from './useContent';

/** About: the administrator's About content (Markdown/HTML or a URL), else a short default. */
export function AboutPage() {
  const { t } = useTranslation();
  const { status } = useStatus();
  const content = useContent(homeApi.about);

  if (content === null) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 10 }}>
        <CircularProgress />
      </Box>
    );
  }
  if (content && isUrl(content)) return <SandboxedPage url={content} title={t('shell:nav.about')} />;

  return (
    <PageContainer maxWidth="md">
      <PageHeader title={t('home:about.title')} />
      <Card>
        <CardContent>
          {content ? (
            <MarkdownContent content={content} />
          ) : (
            <>
              <Typography variant="body1" sx={{ mb: 2 }}>
                {t('home:about.default', { name: status.system_name || t('shell:defaultSystemName') })}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('home:about.hint')}
              </Typography>
              {status.version && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
                  {t('home:about.version', { version: status.version })}
                </Typography>
              )}
            </>
          )}
        </CardContent>
      </Card>
    </PageContainer>
  );
}
