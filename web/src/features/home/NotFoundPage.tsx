import { Button, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 8, sm: 14 }, px: 2 }}>
      <Typography variant="h2" component="p" color="primary" sx={{ fontWeight: 800 }}>
        404
      </Typography>
      <Typography variant="h5" component="h1">
        {t('home:notFound.title')}
      </Typography>
      <Typography color="text.secondary">{t('home:notFound.body')}</Typography>
      <Button variant="contained" component={RouterLink} to="/">
        {t('home:notFound.back')}
      </Button>
    </Stack>
  );
}
