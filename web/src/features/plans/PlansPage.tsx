import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Card, Chip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { DataTable, type DataTableColumn } from '../../components/table/DataTable';
import { RowIconAction, RowTextAction } from '../../components/table/RowIconAction';
import { renderQuota } from '../../lib/quota';
import { toast } from '../../lib/toast';
import { plansApi, type Plan } from './api';
import { PlanDrawer } from './PlanDrawer';
import { planWindowsText } from './planText';

/** Administrators' subscription plans: list, create, edit, enable or disable, delete (a plan someone bought is disabled instead). */
export function PlansPage() {
  const { t } = useTranslation();
  const [rows, setRows] = useState<Plan[]>([]);
  const [loading, setLoading] = useState(true);
  const [drawerTarget, setDrawerTarget] = useState<'add' | number | null>(null);
  const [pendingDelete, setPendingDelete] = useState<Plan | null>(null);
  const closeDrawer = useCallback(() => setDrawerTarget(null), []);

  const reload = useCallback(async () => {
    setLoading(true);
    const result = await plansApi.list();
    setLoading(false);
    if (result.ok) setRows(result.data);
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  async function setEnabled(plan: Plan, enabled: boolean) {
    const result = await plansApi.update({ id: plan.id, enabled });
    if (!result.ok) return;
    toast.success(t('common:operationDone'));
    setRows((previous) => previous.map((row) => (row.id === plan.id ? result.data : row)));
  }

  async function runDelete(plan: Plan) {
    setPendingDelete(null);
    const result = await plansApi.remove(plan.id);
    if (result.ok) toast.success(t(result.data.deleted ? 'plans:deleted' : 'plans:disabledInstead'));
    void reload();
  }

  const columns: DataTableColumn<Plan>[] = [
    { key: 'id', header: 'plans:columns.id', render: (plan) => plan.id, hideOnPhone: true },
    { key: 'name', header: 'plans:columns.name', cellSx: { fontWeight: 600 }, render: (plan) => plan.name },
    {
      key: 'status',
      header: 'plans:columns.status',
      render: (plan) => <Chip size="small" variant="outlined" color={plan.enabled ? 'success' : 'default'} label={t(plan.enabled ? 'plans:status.enabled' : 'plans:status.disabled')} data-testid={`plan-status-${plan.id}`} />,
    },
    { key: 'price', header: 'plans:columns.price', cellSx: { whiteSpace: 'nowrap' }, render: (plan) => t('plans:priceValue', { price: plan.price.toFixed(2), quota: renderQuota(plan.price_quota) }) },
    { key: 'duration', header: 'plans:columns.duration', render: (plan) => t('plans:days', { count: plan.duration_days }) },
    { key: 'allowance', header: 'plans:columns.allowance', render: (plan) => <Box sx={{ whiteSpace: 'pre-line' }}>{planWindowsText(plan, t)}</Box> },
    { key: 'models', header: 'plans:columns.models', hideOnPhone: true, render: (plan) => plan.models?.join(', ') ?? t('plans:allModels') },
    { key: 'group', header: 'plans:columns.group', hideOnPhone: true, render: (plan) => plan.group || t('plans:anyGroup') },
    { key: 'fallback', header: 'plans:columns.fallback', hideOnPhone: true, render: (plan) => t(plan.allow_wallet_fallback ? 'plans:fallback.on' : 'plans:fallback.off') },
    {
      key: 'actions',
      header: 'plans:columns.actions',
      align: 'right',
      sticky: true,
      render: (plan) => (
        <>
          {plan.enabled ? (
            <RowTextAction label={t('plans:actions.disable')} color="warning" onClick={() => void setEnabled(plan, false)} testId={`plan-disable-${plan.id}`} />
          ) : (
            <RowTextAction label={t('plans:actions.enable')} color="success" onClick={() => void setEnabled(plan, true)} testId={`plan-enable-${plan.id}`} />
          )}
          <RowIconAction title={t('plans:actions.edit')} icon={EditOutlinedIcon} onClick={() => setDrawerTarget(plan.id)} testId={`plan-edit-${plan.id}`} />
          <RowIconAction title={t('plans:actions.delete')} icon={DeleteOutlinedIcon} color="error" onClick={() => setPendingDelete(plan)} testId={`plan-delete-${plan.id}`} />
        </>
      ),
    },
  ];

  return (
    <PageContainer maxWidth="xl">
      <PageHeader
        title={t('plans:title')}
        subtitle={t('plans:subtitle')}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDrawerTarget('add')} data-testid="add-plan">
            {t('plans:actions.add')}
          </Button>
        }
      />
      <Card>
        <DataTable columns={columns} rows={rows} rowKey={(plan) => plan.id} loading={loading} minWidth={960} dense testId="plans-table" rowTestId={(plan) => `plan-row-${plan.id}`} />
      </Card>
      <PlanDrawer target={drawerTarget} onClose={closeDrawer} onSaved={() => void reload()} />
      <ConfirmDialog
        open={!!pendingDelete}
        title={t('plans:confirm.title')}
        message={t('plans:confirm.one', { name: pendingDelete?.name ?? '' })}
        confirmLabel={t('plans:actions.delete')}
        danger
        onClose={() => setPendingDelete(null)}
        onConfirm={() => pendingDelete && void runDelete(pendingDelete)}
      />
    </PageContainer>
  );
}
