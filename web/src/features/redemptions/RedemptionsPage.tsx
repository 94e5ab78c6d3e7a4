import { useCallback, useState } from 'react';
import { Button, Card, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useCopy } from '../../components/CopyProvider';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { SearchButton, SearchField } from '../../components/SearchField';
import { DataTable, type DataTableColumn } from '../../components/table/DataTable';
import { RowIconAction, RowTextAction } from '../../components/table/RowIconAction';
import { searchWhenFiltered, usePagedRows } from '../../components/table/usePagedRows';
import { renderQuota } from '../../lib/quota';
import { formatTimestamp } from '../../lib/time';
import { toast } from '../../lib/toast';
import { REDEMPTION_DISABLED, REDEMPTION_UNUSED, REDEMPTION_USED, redemptionsApi, type Redemption } from './api';
import { RedemptionDrawer } from './RedemptionDrawer';

const STATUS_COLORS: Record<number, 'success' | 'default' | 'info'> = { [REDEMPTION_UNUSED]: 'success', [REDEMPTION_DISABLED]: 'default', [REDEMPTION_USED]: 'info' };

const fetchRedemptions = searchWhenFiltered(redemptionsApi.list, redemptionsApi.search);

/** Administrators' redemption codes: search, create in batches, copy keys, edit unused ones (not disabled or used: the spec), enable, disable, delete. */
export function RedemptionsPage() {
  const { t } = useTranslation();
  const copy = useCopy();
  const { rows, setRows, loading, applyQuery, reload, pagination } = usePagedRows(fetchRedemptions, { keyword: '' });
  const [keyword, setKeyword] = useState('');
  const [drawerTarget, setDrawerTarget] = useState<'add' | number | null>(null);
  const [pendingDelete, setPendingDelete] = useState<Redemption | null>(null);
  const [createdKeys, setCreatedKeys] = useState<string[]>([]);
  const closeDrawer = useCallback(() => setDrawerTarget(null), []);

  async function setStatus(code: Redemption, status: number) {
    const result = await redemptionsApi.setStatus(code.id, status);
    if (!result.ok) return;
    toast.success(t('common:operationDone'));
    setRows((previous) => previous.map((row) => (row.id === code.id ? result.data : row)));
  }

  async function runDelete(code: Redemption) {
    setPendingDelete(null);
    const result = await redemptionsApi.remove(code.id);
    if (result.ok) toast.success(t('redemptions:deleted'));
    void reload();
  }

  const columns: DataTableColumn<Redemption>[] = [
    { key: 'id', header: 'redemptions:columns.id', render: (code) => code.id },
    { key: 'name', header: 'redemptions:columns.name', cellSx: { fontWeight: 600 }, render: (code) => code.name },
    {
      key: 'status',
      header: 'redemptions:columns.status',
      render: (code) => (
        <Chip size="small" variant="outlined" color={STATUS_COLORS[code.status] ?? 'default'} label={t(`redemptions:status.${code.status}`)} data-testid={`redemption-status-${code.id}`} />
      ),
    },
    { key: 'quota', header: 'redemptions:columns.quota', cellSx: { whiteSpace: 'nowrap' }, render: (code) => (code.plan_id ? t('redemptions:planCode', { id: code.plan_id }) : renderQuota(code.quota)) },
    { key: 'created', header: 'redemptions:columns.created', cellSx: { whiteSpace: 'nowrap' }, render: (code) => formatTimestamp(code.created_time) },
    {
      key: 'redeemedBy',
      header: 'redemptions:columns.redeemedBy',
      cellSx: { whiteSpace: 'nowrap' },
      render: (code) => (code.used_user_id ? t('redemptions:redeemedBy', { id: code.used_user_id, time: formatTimestamp(code.redeemed_time) }) : t('redemptions:notRedeemed')),
    },
    {
      key: 'actions',
      header: 'redemptions:columns.actions',
      align: 'right',
      sticky: true,
      render: (code) => (
        <>
          <RowTextAction label={t('redemptions:actions.copy')} icon={ContentCopyIcon} onClick={() => void copy(code.key, t('redemptions:copied'))} testId={`redemption-copy-${code.id}`} />
          {code.status === REDEMPTION_UNUSED && (
            <RowTextAction label={t('redemptions:actions.disable')} color="warning" onClick={() => void setStatus(code, REDEMPTION_DISABLED)} testId={`redemption-disable-${code.id}`} />
          )}
          {code.status === REDEMPTION_DISABLED && (
            <RowTextAction label={t('redemptions:actions.enable')} color="success" onClick={() => void setStatus(code, REDEMPTION_UNUSED)} testId={`redemption-enable-${code.id}`} />
          )}
          {code.status === REDEMPTION_UNUSED && (
            <RowIconAction title={t('redemptions:actions.edit')} icon={EditOutlinedIcon} onClick={() => setDrawerTarget(code.id)} testId={`redemption-edit-${code.id}`} />
          )}
          <RowIconAction title={t('redemptions:actions.delete')} icon={DeleteOutlinedIcon} color="error" onClick={() => setPendingDelete(code)} testId={`redemption-delete-${code.id}`} />
        </>
      ),
    },
  ];

  return (
    <PageContainer maxWidth="xl">
      <PageHeader
        title={t('redemptions:title')}
        subtitle={t('redemptions:subtitle')}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDrawerTarget('add')} data-testid="add-redemption">
            {t('redemptions:actions.add')}
          </Button>
        }
      />
      <Card>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ p: 2 }}>
          <SearchField label={t('redemptions:search')} value={keyword} onChange={setKeyword} onSearch={() => applyQuery({ keyword: keyword.trim() })} testId="redemption-search" />
          <SearchButton onClick={() => applyQuery({ keyword: keyword.trim() })} testId="redemption-search-submit" />
        </Stack>
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(code) => code.id}
          loading={loading}
          minWidth={860}
          dense
          testId="redemptions-table"
          rowTestId={(code) => `redemption-row-${code.id}`}
          pagination={pagination}
        />
      </Card>
      <RedemptionDrawer target={drawerTarget} onClose={closeDrawer} onSaved={() => void reload()} onCreated={setCreatedKeys} />
      <Dialog open={createdKeys.length > 0} onClose={() => setCreatedKeys([])} fullWidth maxWidth="sm" data-testid="created-keys-dialog">
        <DialogTitle>{t('redemptions:created.title', { count: createdKeys.length })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {t('redemptions:created.hint')}
          </Typography>
          <TextField value={createdKeys.join('\n')} multiline fullWidth minRows={Math.min(createdKeys.length, 8)} maxRows={12} slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'created-keys' } }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setCreatedKeys([])}>{t('common:actions.close')}</Button>
          <Button variant="contained" startIcon={<ContentCopyIcon />} onClick={() => void copy(createdKeys.join('\n'), t('redemptions:copiedMany', { count: createdKeys.length }))} data-testid="copy-created-keys">
            {t('redemptions:actions.copyAll')}
          </Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={!!pendingDelete}
        title={t('redemptions:confirm.title')}
        message={t('redemptions:confirm.one', { name: pendingDelete?.name ?? '' })}
        confirmLabel={t('redemptions:actions.delete')}
        danger
        onClose={() => setPendingDelete(null)}
        onConfirm={() => pendingDelete && void runDelete(pendingDelete)}
      />
    </PageContainer>
  );
}
