import { useEffect, useState } from 'react';
import { Box, Button, Card, CardContent, CardHeader, Chip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/CopyProvider';
import { StorageKey } from '../../lib/storage';
import { personalApi } from './api';

const COLLAPSED_COUNT = 10;

/** The models this user may call: the first ten, then an expand control whose state is remembered. */
export function ModelsCard() {
  const { t } = useTranslation();
  const copy = useCopy();
  const [models, setModels] = useState<string[] | null>(null);
  const [expanded, setExpanded] = useState(() => localStorage.getItem(StorageKey.modelsExpanded) === 'true');

  useEffect(() => {
    void personalApi.models().then((result) => setModels(result.ok ? (result.data ?? []) : []));
  }, []);

  function toggle() {
    setExpanded((previous) => {
      localStorage.setItem(StorageKey.modelsExpanded, String(!previous));
      return !previous;
    });
  }

  const list = models ?? [];
  const shown = expanded ? list : list.slice(0, COLLAPSED_COUNT);
  return (
    <Card>
      <CardHeader title={t('personal:models.title')} subheader={t('personal:models.subtitle', { count: list.length })} />
      <CardContent sx={{ pt: 0 }}>
        {models && list.length === 0 && <Typography color="text.secondary">{t('personal:models.empty')}</Typography>}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} data-testid="models-list">
          {shown.map((model) => (
            <Chip key={model} label={model} variant="outlined" size="small" onClick={() => void copy(model)} />
          ))}
        </Box>
        {list.length > COLLAPSED_COUNT && (
          <Button size="small" onClick={toggle} sx={{ mt: 1.5 }} data-testid="models-toggle">
            {expanded ? t('personal:models.collapse') : t('personal:models.expand', { count: list.length - COLLAPSED_COUNT })}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
