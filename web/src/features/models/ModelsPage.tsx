import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Card, CardContent, Chip, MenuItem, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { SearchButton, SearchField } from '../../components/SearchField';
import { DataTable, type DataTableColumn } from '../../components/table/DataTable';
import { RowIconAction } from '../../components/table/RowIconAction';
import { usePaging } from '../../components/table/PagedTablePagination';
import { toast } from '../../lib/toast';
import { modelsApi, type ModelMeta, type Vendor } from './api';
import { ModelIcon } from './ModelIcon';
import { ModelMetaDrawer } from './ModelMetaDrawer';
import { formatTokenCount, MODEL_TAGS } from './modelMeta';
import { VendorDrawer } from './VendorDrawer';

type PendingDelete = { kind: 'model'; row: ModelMeta } | { kind: 'vendor'; row: Vendor };

/** Administrators' model and vendor metadata: what the pricing page and the playground show about each model. */
export function ModelsPage() {
  const { t } = useTranslation();
  const [vendors, setVendors] = useState<Vendor[]>([]);
  const [rows, setRows] = useState<ModelMeta[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [keyword, setKeyword] = useState('');
  const [vendorFilter, setVendorFilter] = useState('');
  const [tagFilter, setTagFilter] = useState('');
  const [query, setQuery] = useState({ keyword: '', vendor: '', tag: '' });
  const { page, setPage, pageSize, setPageSize } = usePaging();
  const [modelTarget, setModelTarget] = useState<'add' | number | null>(null);
  const [vendorTarget, setVendorTarget] = useState<'add' | Vendor | null>(null);
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  const closeModelDrawer = useCallback(() => setModelTarget(null), []);
  const closeVendorDrawer = useCallback(() => setVendorTarget(null), []);

  const reloadVendors = useCallback(async () => {
    const result = await modelsApi.vendors();
    if (result.ok) setVendors(result.data);
  }, []);

  const reloadModels = useCallback(async () => {
    setLoading(true);
    const result = await modelsApi.search({ keyword: query.keyword, vendor_id: query.vendor === '' ? undefined : Number(query.vendor), tag: query.tag, p: page + 1, page_size: pageSize });
    setLoading(false);
    if (!result.ok) return;
    setRows(result.data.items);
    setTotal(result.data.total);
  }, [query, page, pageSize]);

  useEffect(() => {
    void reloadVendors();
  }, [reloadVendors]);
  useEffect(() => {
    void reloadModels();
  }, [reloadModels]);

  function runSearch(next = { keyword, vendor: vendorFilter, tag: tagFilter }) {
    setPage(0);
    setQuery(next);
  }

  async function runDelete(target: PendingDelete) {
    setPendingDelete(null);
    const result = target.kind === 'model' ? await modelsApi.remove(target.row.id) : await modelsApi.removeVendor(target.row.id);
    if (result.ok) toast.success(t('common:operationDone'));
    void reloadVendors();
    void reloadModels();
  }

  const vendorById = new Map(vendors.map((vendor) => [vendor.id, vendor]));

  const columns: DataTableColumn<ModelMeta>[] = [
    {
      key: 'model',
      header: 'models:columns.model',
      render: (row) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <ModelIcon icon={row.icon || vendorById.get(row.vendor_id)?.icon || ''} name={row.model_name} />
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-all' }}>
              {row.model_name}
            </Typography>
            {row.description && (
              <Typography variant="caption" color="text.secondary">
                {row.description}
              </Typography>
            )}
          </Box>
        </Stack>
      ),
    },
    { key: 'vendor', header: 'models:columns.vendor', render: (row) => vendorById.get(row.vendor_id)?.name ?? '—' },
    {
      key: 'tags',
      header: 'models:columns.tags',
      hideOnPhone: true,
      render: (row) => (
        <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }}>
          {row.tags.map((tag) => (
            <Chip key={tag} size="small" variant="outlined" label={t(`models:tags.${tag}`)} />
          ))}
        </Stack>
      ),
    },
    { key: 'context', header: 'models:columns.context', cellData: (row) => ({ 'data-testid': `model-meta-context-${row.model_name}` }), render: (row) => formatTokenCount(row.context_length) || '—' },
    { key: 'maxOutput', header: 'models:columns.maxOutput', hideOnPhone: true, render: (row) => formatTokenCount(row.max_output) || '—' },
    {
      key: 'actions',
      header: 'models:columns.actions',
      align: 'right',
      sticky: true,
      render: (row) => (
        <>
          <RowIconAction title={t('models:actions.edit')} icon={EditOutlinedIcon} onClick={() => setModelTarget(row.id)} testId={`model-meta-edit-${row.model_name}`} />
          <RowIconAction title={t('models:actions.delete')} icon={DeleteOutlinedIcon} color="error" onClick={() => setPendingDelete({ kind: 'model', row })} testId={`model-meta-delete-${row.model_name}`} />
        </>
      ),
    },
  ];

  return (
    <PageContainer maxWidth="xl">
      <PageHeader
        title={t('models:title')}
        subtitle={t('models:subtitle')}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setModelTarget('add')} data-testid="add-model-meta">
            {t('models:actions.add')}
          </Button>
        }
      />
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
              {t('models:vendors.title')}
            </Typography>
            <Button size="small" startIcon={<AddIcon />} onClick={() => setVendorTarget('add')} data-testid="add-vendor">
              {t('models:vendors.add')}
            </Button>
          </Stack>
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }} data-testid="vendor-list">
            {vendors.map((vendor) => (
              <Chip
                key={vendor.id}
                avatar={<ModelIcon icon={vendor.icon} name={vendor.name} size={20} />}
                label={t('models:vendors.chip', { name: vendor.name, count: vendor.model_count })}
                onClick={() => setVendorTarget(vendor)}
                onDelete={() => setPendingDelete({ kind: 'vendor', row: vendor })}
                data-testid={`vendor-chip-${vendor.name}`}
              />
            ))}
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <Stack direction={{ xs: 'column', md: 'row' }} sx={{ p: 2, gap: 1.5, alignItems: { md: 'center' } }}>
          <SearchField label={t('models:search')} value={keyword} onChange={setKeyword} onSearch={() => runSearch()} testId="model-meta-search" sx={{ minWidth: { md: 260 } }} />
          <TextField
            select
            label={t('models:fields.vendor')}
            value={vendorFilter}
            onChange={(event) => {
              setVendorFilter(event.target.value);
              runSearch({ keyword, vendor: event.target.value, tag: tagFilter });
            }}
            sx={{ minWidth: 160 }}
            slotProps={{ htmlInput: { 'data-testid': 'model-meta-vendor-filter' } }}
          >
            <MenuItem value="">{t('models:allVendors')}</MenuItem>
            <MenuItem value="0">{t('models:noVendor')}</MenuItem>
            {vendors.map((vendor) => (
              <MenuItem key={vendor.id} value={String(vendor.id)}>
                {vendor.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('models:fields.tags')}
            value={tagFilter}
            onChange={(event) => {
              setTagFilter(event.target.value);
              runSearch({ keyword, vendor: vendorFilter, tag: event.target.value });
            }}
            sx={{ minWidth: 140 }}
            slotProps={{ htmlInput: { 'data-testid': 'model-meta-tag-filter' } }}
          >
            <MenuItem value="">{t('models:allTags')}</MenuItem>
            {MODEL_TAGS.map((tag) => (
              <MenuItem key={tag} value={tag}>
                {t(`models:tags.${tag}`)}
              </MenuItem>
            ))}
          </TextField>
          <SearchButton onClick={() => runSearch()} testId="model-meta-search-button" />
        </Stack>
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          loading={loading}
          minWidth={760}
          dense
          testId="model-meta-table"
          rowTestId={(row) => `model-meta-row-${row.model_name}`}
          pagination={{ total, page, pageSize, onPageChange: setPage, onPageSizeChange: setPageSize }}
        />
      </Card>
      <ModelMetaDrawer target={modelTarget} vendors={vendors} onClose={closeModelDrawer} onSaved={() => void Promise.all([reloadModels(), reloadVendors()])} />
      <VendorDrawer target={vendorTarget} onClose={closeVendorDrawer} onSaved={() => void reloadVendors()} />
      <ConfirmDialog
        open={!!pendingDelete}
        title={t('models:confirm.title')}
        message={pendingDelete?.kind === 'vendor' ? t('models:confirm.vendor', { name: pendingDelete.row.name }) : t('models:confirm.model', { name: pendingDelete?.row.model_name ?? '' })}
        confirmLabel={t('models:actions.delete')}
        danger
        onClose={() => setPendingDelete(null)}
        onConfirm={() => pendingDelete && void runDelete(pendingDelete)}
      />
    </PageContainer>
  );
}
