import { useState } from 'react';
import { Button, IconButton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { RatioSyncSource, RatioSyncSourceKind } from '@shared/ratio-sync/ratio-sync.wire';
import { FormSelect } from '../../../components/form/FormSelect';
import { FormTextField } from '../../../components/form/FormTextField';
import { EmptyTableRow } from '../../../components/table/TableStatus';
import { toast } from '../../../lib/toast';
import { ratioSyncApi } from './api';

const KINDS: RatioSyncSourceKind[] = ['gateway', 'price_list'];

interface RatioSyncSourcesProps {
  sources: RatioSyncSource[];
  onChange: (next: RatioSyncSource[]) => void;
}

/** The configured sources, each saved at once: a row removed, or one added with the form below. */
export function RatioSyncSources({ sources, onChange }: RatioSyncSourcesProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const { control, handleSubmit, reset } = useForm<RatioSyncSource>({ defaultValues: { name: '', kind: 'gateway', url: '' } });

  async function save(next: RatioSyncSource[]): Promise<boolean> {
    setSaving(true);
    const result = await ratioSyncApi.saveSources(next);
    setSaving(false);
    if (!result.ok) return false;
    onChange(result.data);
    toast.success(t('settingsPricing:sync.sourcesSaved'));
    return true;
  }

  const add = handleSubmit(async (source) => {
    if (await save([...sources, { ...source, name: source.name.trim(), url: source.url.trim() }])) reset();
  });

  return (
    <Stack spacing={1.5} data-testid="ratio-sync-sources">
      <TableContainer>
        <Table size="small" sx={{ minWidth: 480 }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('settingsPricing:sync.sourceName')}</TableCell>
              <TableCell>{t('settingsPricing:sync.sourceKind')}</TableCell>
              <TableCell>{t('settingsPricing:sync.sourceUrl')}</TableCell>
              <TableCell align="right">{t('settingsPricing:columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {sources.map((source) => (
              <TableRow key={source.name} data-testid={`ratio-sync-source-${source.name}`}>
                <TableCell sx={{ fontWeight: 600 }}>{source.name}</TableCell>
                <TableCell>{t(`settingsPricing:sync.kinds.${source.kind}`)}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{source.url}</TableCell>
                <TableCell align="right">
                  <Tooltip title={t('settingsPricing:visual.delete')}>
                    <IconButton
                      size="small"
                      disabled={saving}
                      aria-label={t('settingsPricing:visual.delete')}
                      onClick={() => void save(sources.filter((item) => item.name !== source.name))}
                      data-testid={`ratio-sync-source-delete-${source.name}`}
                    >
                      <DeleteOutlinedIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {sources.length === 0 && <EmptyTableRow colSpan={4} />}
          </TableBody>
        </Table>
      </TableContainer>
      <Stack component="form" noValidate onSubmit={add} spacing={1.5}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <FormTextField
            control={control}
            name="name"
            size="small"
            label={t('settingsPricing:sync.sourceName')}
            rules={{
              validate: (name: string) =>
                name.trim() === '' ? 'settingsPricing:sync.errors.nameRequired' : sources.some((item) => item.name === name.trim()) ? 'settingsPricing:sync.errors.duplicateName' : true,
              maxLength: { value: 64, message: 'settingsPricing:sync.errors.nameTooLong' },
            }}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { 'data-testid': 'ratio-sync-source-name' } }}
          />
          <FormSelect
            control={control}
            name="kind"
            size="small"
            label={t('settingsPricing:sync.sourceKind')}
            choices={KINDS.map((kind) => ({ value: kind, label: t(`settingsPricing:sync.kinds.${kind}`) }))}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { 'data-testid': 'ratio-sync-source-kind' } }}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
          <FormTextField
            control={control}
            name="url"
            size="small"
            label={t('settingsPricing:sync.sourceUrl')}
            helperText={t('settingsPricing:sync.sourceUrlHint')}
            rules={{ validate: (url: string) => (/^https?:\/\/\S+$/i.test(url.trim()) ? true : 'settingsPricing:sync.errors.url') }}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { 'data-testid': 'ratio-sync-source-url' } }}
          />
          <Button type="submit" variant="outlined" startIcon={<AddIcon />} disabled={saving} data-testid="ratio-sync-source-add" sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
            {t('settingsPricing:sync.addSource')}
          </Button>
        </Stack>
      </Stack>
    </Stack>
  );
}
