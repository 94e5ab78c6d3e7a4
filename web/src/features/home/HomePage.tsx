import { Alert, AlertTitle, Box, Button, Card, CardContent, CircularProgress, Container, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import SpeedOutlinedIcon from '@mui/icons-material/SpeedOutlined';
import SavingsOutlinedIcon from '@mui/icons-material/SavingsOutlined';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/CopyProvider';
import { isUrl, MarkdownContent, SandboxedPage } from '../../components/SafeHtml';
import { CONSOLE_HOME } from '../../layout/navigation';
import { useSessionUser } from '../../lib/session';
import { useStatus } from '../status/StatusProvider';
import { homeApi } from './api';
import { useContent } from './useContent';

function Notice() {
  const { t } = useTranslation();
  const notice = useContent(homeApi.notice);
  if (!notice) return null;
  return (
    <Container maxWidth="lg" sx={{ pt: 3 }}>
      <Alert severity="info" variant="outlined" data-testid="notice">
        <AlertTitle>{t('home:notice')}</AlertTitle>
        <MarkdownContent content={notice} />
      </Alert>
    </Container>
  );
}

const FEATURES = [
  { icon: HubOutlinedIcon, title: 'home:features.unified.title', body: 'home:features.unified.body' },
  { icon: SavingsOutlinedIcon, title: 'home:features.quota.title', body: 'home:features.quota.body' },
  { icon: SpeedOutlinedIcon, title: 'home:features.routing.title', body: 'home:features.routing.body' },
];

function DefaultHome() {
  const { t } = useTranslation();
  const { status } = useStatus();
  const user = useSessionUser();
  const copy = useCopy();
  const baseUrl = status.server_address || window.location.origin;
  const name = status.system_name || t('shell:defaultSystemName');

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 5, sm: 10 } }}>
      <Stack spacing={3} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <Typography variant="h3" component="h1" sx={{ fontWeight: 800, fontSize: { xs: 32, sm: 48 } }}>
          {name}
        </Typography>
        <Typography variant="h6" color="text.secondary" sx={{ maxWidth: 640, fontWeight: 400 }}>
          {t('home:tagline')}
        </Typography>
        <Card sx={{ width: '100%', maxWidth: 560 }}>
          <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 1, py: '12px !important' }}>
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
              {t('home:baseUrl')}
            </Typography>
            <Typography
              sx={{ fontFamily: 'monospace', flex: 1, textAlign: 'left', overflow: 'hidden', textOverflow: 'ellipsis' }}
              data-testid="base-url"
            >
              {baseUrl}
            </Typography>
            <Tooltip title={t('common:actions.copy')}>
              <IconButton size="small" onClick={() => void copy(baseUrl)} aria-label={t('common:actions.copy')}>
                <ContentCopyIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </CardContent>
        </Card>
        <Stack direction="row" spacing={2}>
          <Button variant="contained" size="large" component={RouterLink} to={user ? CONSOLE_HOME : '/login'}>
            {user ? t('home:openConsole') : t('home:getStarted')}
          </Button>
          {status.docs_link && (
            <Button variant="outlined" size="large" href={status.docs_link} target="_blank" rel="noopener noreferrer">
              {t('shell:nav.docs')}
            </Button>
          )}
        </Stack>
      </Stack>
      <Box
        sx={{ mt: { xs: 6, sm: 10 }, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}
      >
        {FEATURES.map(({ icon: Icon, title, body }) => (
          <Card key={title}>
            <CardContent>
              <Icon color="primary" sx={{ fontSize: 32, mb: 1 }} />
              <Typography variant="h6" gutterBottom>
                {t(title)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t(body)}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    </Container>
  );
}

/** Home: the administrator's HomePageContent (Markdown/HTML, or a URL in a sandboxed frame), else a default landing. */
export function HomePage() {
  const { t } = useTranslation();
  const content = useContent(homeApi.homePageContent);

  if (content === null) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 10 }}>
        <CircularProgress />
      </Box>
    );
  }
  if (content && isUrl(content)) {
    return <SandboxedPage url={content} title={t('shell:nav.home')} />;
  }
  return (
    <>
      <Notice />
      {content ? (
        <Container maxWidth="lg" sx={{ py: 4 }}>
          <MarkdownContent content={content} />
        </Container>
      ) : (
        <DefaultHome />
      )}
    </>
  );
}
