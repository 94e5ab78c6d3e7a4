import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Stack, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { GroupFilter } from '../../components/GroupFilter';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { SearchButton, SearchField } from '../../components/SearchField';
import { DataTable, type DataTableColumn } from '../../components/table/DataTable';
import { searchWhenFiltered, usePagedRows } from '../../components/table/usePagedRows';
import { renderNumber, renderQuota } from '../../lib/quota';
import { useSessionUser, type SessionUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { AddUserDrawer } from './AddUserDrawer';
import { usersApi, type AdminUser, type ManageAction } from './api';
import { EditUserDrawer } from './EditUserDrawer';
import { RoleChip, STATUS_ENABLED, StatusChip } from './labels';
import { blockedReason } from './rowActions';

interface ActionButtonProps {
  me: SessionUser;
  row: AdminUser;
  action: ManageAction | 'edit';
  color?: 'primary' | 'error' | 'warning' | 'success' | 'inherit';
  onClick: () => void;
}

function ActionButton({ me, row, action, color = 'primary', onClick }: ActionButtonProps) {
  const { t } = useTranslation();
  const reason = blockedReason(me, row, action);
  return (
    <Tooltip title={reason ? t(reason) : ''}>
      <span>
        <Button size="small" color={color} disabled={!!reason} onClick={onClick} data-testid={`action-${action}-${row.id}`} sx={{ minWidth: 0, px: 1 }}>
          {t(`users:actions.${action}`)}
        </Button>
      </span>
    </Tooltip>
  );
}

const fetchUsers = searchWhenFiltered(usersApi.list, (filters: { keyword: string; group: string }, page, pageSize) =>
  usersApi.search(filters.keyword, filters.group, page, pageSize),
);

/** Admin user management: search, paged table, row actions and the add/edit drawers. */
export function UsersPage() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const { rows, setRows, loading, applyQuery, reload, pagination } = usePagedRows(fetchUsers, { keyword: '', group: '' });
  const [keyword, setKeyword] = useState('');
  const [group, setGroup] = useState('');
  const [groups, setGroups] = useState<string[]>([]);
  const [addOpen, setAddOpen] = useState(false);
  // The editor follows the URL: /user/edit/{id} edits that user, /user/edit the signed-in one; closing returns to /user.
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const params = useParams();
  const editingId = params.id ? Number(params.id) || null : pathname.endsWith('/user/edit') ? (me?.id ?? null) : null;
  const closeEditor = useCallback(() => navigate('/user'), [navigate]);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  useEffect(() => {
    void usersApi.groups().then((result) => result.ok && setGroups(result.data ?? []));
  }, []);

  if (!me) return null;

  function search() {
    applyQuery({ keyword: keyword.trim(), group });
  }

  const columns: DataTableColumn<AdminUser>[] = [
    { key: 'id', header: 'users:columns.id', render: (row) => row.id },
    {
      key: 'user',
      header: 'users:columns.user',
      render: (row) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {row.username}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {[row.display_name, row.remark].filter(Boolean).join(' · ')}
          </Typography>
        </>
      ),
    },
    { key: 'group', header: 'users:columns.group', render: (row) => row.group },
    {
      key: 'quota',
      header: 'users:columns.quota',
      render: (row) => (
        <>
          <Typography variant="body2" data-testid={`user-quota-${row.id}`}>
            {t('users:quota.remaining', { value: renderQuota(row.quota) })}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t('users:quota.used', { value: renderQuota(row.used_quota) })} · {t('users:quota.requests', { value: renderNumber(row.request_count) })}
          </Typography>
        </>
      ),
    },
    { key: 'role', header: 'users:columns.role', render: (row) => <RoleChip role={row.role} />, cellData: (row) => ({ 'data-testid': `user-role-${row.id}` }) },
    {
      key: 'status',
      header: 'users:columns.status',
      render: (row) => <StatusChip status={row.status} deleted={!!row.DeletedAt} />,
      cellData: (row) => ({ 'data-testid': `user-status-${row.id}` }),
    },
    {
      key: 'actions',
      header: 'users:columns.actions',
      align: 'right',
      cellSx: { whiteSpace: 'nowrap' },
      render: (row) =>
        !row.DeletedAt && (
          <Stack direction="row" spacing={0.25} sx={{ justifyContent: 'flex-end' }}>
            <ActionButton me={me} row={row} action="promote" onClick={() => void manage(row, 'promote')} />
            <ActionButton me={me} row={row} action="demote" color="warning" onClick={() => void manage(row, 'demote')} />
            {row.status === STATUS_ENABLED ? (
              <ActionButton me={me} row={row} action="disable" color="warning" onClick={() => void manage(row, 'disable')} />
            ) : (
              <ActionButton me={me} row={row} action="enable" color="success" onClick={() => void manage(row, 'enable')} />
            )}
            <ActionButton me={me} row={row} action="edit" onClick={() => navigate(`/user/edit/${row.id}`)} />
            <ActionButton me={me} row={row} action="delete" color="error" onClick={() => setDeleting(row)} />
          </Stack>
        ),
    },
  ];

  async function manage(row: AdminUser, action: ManageAction) {
    const result = await usersApi.manage(row.id, action);
    if (!result.ok) return;
    toast.success(t('common:operationDone'));
    setRows((previous) =>
      previous.map((item) => {
        if (item.id !== row.id) return item;
        if (action === 'delete') return { ...item, DeletedAt: new Date().toISOString() };
        return { ...item, status: result.data.status, role: result.data.role };
      }),
    );
  }

  return (
    <PageContainer maxWidth="xl">
      <PageHeader
        title={t('users:title')}
        subtitle={t('users:subtitle')}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAddOpen(true)} data-testid="add-user">
            {t('users:add.button')}
          </Button>
        }
      />
      <Card>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ p: 2 }}>
          <SearchField label={t('users:search.keyword')} value={keyword} onChange={setKeyword} onSearch={search} testId="user-search-keyword" sx={{ maxWidth: { sm: 360 } }} />
          <GroupFilter
            label={t('users:search.group')}
            allLabel={t('users:search.allGroups')}
            value={group}
            onChange={setGroup}
            groups={groups}
            sx={{ minWidth: 160, maxWidth: { sm: 220 } }}
            testId="user-search-group"
          />
          <SearchButton onClick={search} testId="user-search-submit" />
        </Stack>
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          loading={loading}
          minWidth={900}
          rowTestId={(row) => `user-row-${row.id}`}
          rowSx={(row) => (row.DeletedAt ? { opacity: 0.55 } : undefined)}
          pagination={pagination}
        />
      </Card>
      <AddUserDrawer open={addOpen} onClose={() => setAddOpen(false)} onCreated={() => void reload()} />
      <EditUserDrawer userId={editingId} onClose={closeEditor} onSaved={() => void reload()} />
      <ConfirmDialog
        open={!!deleting}
        title={t('users:delete.title')}
        message={t('users:delete.message', { username: deleting?.username ?? '' })}
        confirmLabel={t('users:actions.delete')}
        danger
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) void manage(deleting, 'delete');
          setDeleting(null);
        }}
      />
    </PageContainer>
  );
}
