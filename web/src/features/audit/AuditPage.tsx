import { useState } from 'react';
import { Box, Button, Card, Chip, MenuItem, Stack, TextField, Typography } from '@mui/material';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useTranslation } from 'react-i18next';
import { DateTimeFilterField } from '../../components/DateTimeFilterField';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { SearchButton } from '../../components/SearchField';
import { DataTable, type DataTableColumn } from '../../components/table/DataTable';
import { usePagedRows } from '../../components/table/usePagedRows';
import { formatTimestamp } from '../../lib/time';
import { AUDIT_ENTITIES, auditApi, describeValue, type AuditFilters, type AuditLogView } from './api';

const NO_FILTERS: AuditFilters = { actor: '', entity: '', start_timestamp: 0, end_timestamp: 0 };

/** The fields a change touched: old → new, or only "changed" for a secret. */
function ChangeList({ row }: { row: AuditLogView }) {
  const { t } = useTranslation();
  // A create lists every field; one that went from nothing to empty ("- → -") says nothing.
  const entries = Object.entries(row.changes).filter(([, change]) => 'changed' in change || describeValue(change.from) !== describeValue(change.to));
  if (entries.length === 0) return <Typography variant="body2" color="text.secondary">-</Typography>;
  return (
    <Stack spacing={0.25} sx={{ minWidth: 0 }}>
      {entries.map(([field, change]) => {
        const text = 'changed' in change ? t('audit:secretChanged') : `${describeValue(change.from)} → ${describeValue(change.to)}`;
        return (
          <Typography key={field} variant="body2" title={text} sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: 520 }} data-testid={`audit-change-${row.id}-${field}`}>
            <Box component="span" sx={{ fontWeight: 600 }}>
              {field}
            </Box>
            {': '}
            {text}
          </Typography>
        );
      })}
    </Stack>
  );
}

/** Root's audit log: every change administrators made, newest first, filtered by actor, entity and date. Rows are never edited. */
export function AuditPage() {
  const { t } = useTranslation();
  const { rows, loading, applyQuery, pagination } = usePagedRows(auditApi.list, NO_FILTERS);
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const update = (changes: Partial<AuditFilters>) => setDraft((previous) => ({ ...previous, ...changes }));
  const search = () => applyQuery({ ...draft, actor: draft.actor.trim() });
  const reset = () => {
    setDraft(NO_FILTERS);
    applyQuery(NO_FILTERS);
  };

  const columns: DataTableColumn<AuditLogView>[] = [
    { key: 'time', header: 'audit:columns.time', cellSx: { whiteSpace: 'nowrap' }, render: (row) => formatTimestamp(row.created_at) },
    {
      key: 'actor',
      header: 'audit:columns.actor',
      cellSx: { whiteSpace: 'nowrap' },
      render: (row) => (
        <Stack>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {row.actor_username}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            #{row.actor_id}
          </Typography>
        </Stack>
      ),
    },
    { key: 'ip', header: 'audit:columns.ip', hideOnPhone: true, cellSx: { whiteSpace: 'nowrap' }, render: (row) => row.actor_ip.replace(/^::ffff:/, '') || '-' },
    {
      key: 'target',
      header: 'audit:columns.target',
      render: (row) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Chip size="small" variant="outlined" label={t(`audit:entities.${row.entity}`)} />
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
            {row.entity_id}
          </Typography>
        </Stack>
      ),
    },
    { key: 'action', header: 'audit:columns.action', cellSx: { whiteSpace: 'nowrap' }, render: (row) => t(`audit:actions.${row.action}`, { defaultValue: row.action }) },
    { key: 'changes', header: 'audit:columns.changes', render: (row) => <ChangeList row={row} /> },
    { key: 'log', header: 'audit:columns.log', hideOnPhone: true, render: (row) => (row.log_id ? `#${row.log_id}` : '-') },
  ];

  return (
    <PageContainer maxWidth="xl">
      <PageHeader title={t('audit:title')} subtitle={t('audit:subtitle')} />
      <Card>
        <Box sx={{ p: 2, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
          <TextField
            label={t('audit:filters.actor')}
            value={draft.actor}
            onChange={(event) => update({ actor: event.target.value })}
            onKeyDown={(event) => event.key === 'Enter' && search()}
            size="small"
            slotProps={{ htmlInput: { 'data-testid': 'audit-filter-actor' } }}
          />
          <TextField
            select
            label={t('audit:filters.entity')}
            value={draft.entity}
            onChange={(event) => update({ entity: event.target.value as AuditFilters['entity'] })}
            size="small"
            slotProps={{ htmlInput: { 'data-testid': 'audit-filter-entity' } }}
          >
            <MenuItem value="">{t('audit:filters.anyEntity')}</MenuItem>
            {AUDIT_ENTITIES.map((entity) => (
              <MenuItem key={entity} value={entity}>
                {t(`audit:entities.${entity}`)}
              </MenuItem>
            ))}
          </TextField>
          <DateTimeFilterField label={t('audit:filters.start')} value={draft.start_timestamp} onChange={(start_timestamp) => update({ start_timestamp })} testId="audit-filter-start" size="small" />
          <DateTimeFilterField label={t('audit:filters.end')} value={draft.end_timestamp} onChange={(end_timestamp) => update({ end_timestamp })} testId="audit-filter-end" size="small" />
        </Box>
        <Stack direction="row" spacing={1} sx={{ px: 2, pb: 2, justifyContent: 'flex-end' }}>
          <SearchButton onClick={search} testId="audit-search" />
          <Button variant="text" startIcon={<RestartAltIcon />} onClick={reset} data-testid="audit-reset" sx={{ flexShrink: 0 }}>
            {t('audit:filters.reset')}
          </Button>
        </Stack>
        <DataTable columns={columns} rows={rows} rowKey={(row) => row.id} loading={loading} minWidth={980} dense testId="audit-table" rowTestId={(row) => `audit-row-${row.id}`} pagination={pagination} />
      </Card>
    </PageContainer>
  );
}
