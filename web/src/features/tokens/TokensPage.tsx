import { useCallback, useState } from 'react';
import { Alert, Button, Card, Chip, ListItemText, Menu, MenuItem, Stack, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ChatOutlinedIcon from '@mui/icons-material/ChatOutlined';
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
import { BudgetUsageBars } from '../budget/BudgetUsageBars';
import { useStatus } from '../status/StatusProvider';
import { canEnable, NEVER_EXPIRES, TOKEN_DISABLED, TOKEN_ENABLED, tokensApi, tokenState, type Token, type TokenState } from './api';
import { fillChatLink, parseChatLinks } from './chatLinks';
import { TokenDrawer } from './TokenDrawer';

const STATE_COLORS: Record<TokenState, 'success' | 'info' | 'default' | 'warning' | 'error'> = {
  enabled: 'success',
  limited: 'info',
  disabled: 'default',
  expired: 'warning',
  exhausted: 'error',
};

/** Masks the middle of a key for display: sk-abcd…wxyz. */
function maskKey(key: string): string {
  return key.length > 14 ? `${key.slice(0, 7)}…${key.slice(-4)}` : key;
}

type PendingDelete = { kind: 'one'; token: Token } | { kind: 'selected' };

const fetchTokens = searchWhenFiltered(tokensApi.list, (filters: { keyword: string; token: string }, page, size) =>
  tokensApi.search(filters.keyword, filters.token, page, size),
);

/** The user's API tokens: search, create and edit, copy, open in a chat client, enable/disable, delete. */
export function TokensPage() {
  const { t } = useTranslation();
  const { status } = useStatus();
  const copy = useCopy();
  const { rows, setRows, loading, applyQuery, reload, pagination } = usePagedRows(fetchTokens, { keyword: '', token: '' });
  const [keyword, setKeyword] = useState('');
  const [tokenFilter, setTokenFilter] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [drawerTarget, setDrawerTarget] = useState<'add' | number | null>(null);
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  const [chatMenu, setChatMenu] = useState<{ anchor: HTMLElement; token: Token } | null>(null);

  const closeDrawer = useCallback(() => setDrawerTarget(null), []);

  function search() {
    setSelected(new Set());
    applyQuery({ keyword: keyword.trim(), token: tokenFilter.trim() });
  }

  async function setTokenStatus(token: Token, next: number) {
    const result = await tokensApi.setStatus(token.id, next);
    if (!result.ok) return;
    toast.success(t('common:operationDone'));
    setRows((previous) => previous.map((row) => (row.id === token.id ? { ...row, ...(result.data ?? { status: next }) } : row)));
  }

  async function runDelete(pending: PendingDelete) {
    setPendingDelete(null);
    if (pending.kind === 'one') {
      const result = await tokensApi.remove(pending.token.id);
      if (result.ok) toast.success(t('tokens:deleted'));
    } else {
      const result = await tokensApi.removeMany([...selected]);
      if (result.ok) toast.success(t('tokens:deletedCount', { count: result.data }));
      setSelected(new Set());
    }
    void reload();
  }

  function openChatMenu(anchor: HTMLElement, token: Token) {
    const links = parseChatLinks(status.chats);
    if (links === null) return toast.error(t('tokens:chat.configError'));
    if (links.length === 0) return toast.error(t('tokens:chat.notConfigured'));
    setChatMenu({ anchor, token });
  }

  function openChat(url: string, token: Token) {
    setChatMenu(null);
    if (!url) return toast.error(t('tokens:chat.configError'));
    const address = status.server_address || window.location.origin;
    window.open(fillChatLink(url, token.key, address), '_blank', 'noopener,noreferrer');
  }

  function copySelected() {
    const chosen = rows.filter((row) => selected.has(row.id));
    if (chosen.length === 0) return toast.error(t('tokens:errors.selectOne'));
    void copy(chosen.map((row) => `${row.name}    ${row.key}`).join('\n'), t('tokens:copiedMany', { count: chosen.length }));
  }

  const chatLinks = parseChatLinks(status.chats) ?? [];

  const columns: DataTableColumn<Token>[] = [
    {
      key: 'name',
      header: 'tokens:columns.name',
      render: (token) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {token.name || t('tokens:unnamed')}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', whiteSpace: 'nowrap' }}>
            {maskKey(token.key)}
          </Typography>
        </>
      ),
    },
    {
      key: 'status',
      header: 'tokens:columns.status',
      render: (token) => {
        const state = tokenState(token);
        return <Chip size="small" variant="outlined" color={STATE_COLORS[state]} label={t(`tokens:status.${state}`)} data-testid={`token-status-${token.id}`} />;
      },
    },
    { key: 'used', header: 'tokens:columns.used', cellSx: { whiteSpace: 'nowrap' }, render: (token) => renderQuota(token.used_quota) },
    {
      key: 'remaining',
      header: 'tokens:columns.remaining',
      cellSx: { whiteSpace: 'nowrap' },
      cellData: (token) => ({ 'data-testid': `token-remaining-${token.id}` }),
      render: (token) => (token.unlimited_quota ? t('tokens:unlimited') : renderQuota(token.remain_quota)),
    },
    { key: 'windows', header: 'budget:column', render: (token) => <BudgetUsageBars usage={token.budget_usage} testId={`token-windows-${token.id}`} /> },
    {
      key: 'group',
      header: 'tokens:columns.group',
      render: (token) =>
        token.group ? (
          <Chip size="small" variant="outlined" label={token.group} />
        ) : (
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {t('tokens:userGroup')}
          </Typography>
        ),
    },
    { key: 'created', header: 'tokens:columns.created', cellSx: { whiteSpace: 'nowrap' }, render: (token) => formatTimestamp(token.created_time) },
    {
      key: 'expiry',
      header: 'tokens:columns.expiry',
      cellSx: { whiteSpace: 'nowrap' },
      render: (token) => (token.expired_time === NEVER_EXPIRES ? t('tokens:neverExpires') : formatTimestamp(token.expired_time)),
    },
    {
      key: 'actions',
      header: 'tokens:columns.actions',
      align: 'right',
      sticky: true,
      render: (token) => (
        <>
          <RowTextAction label={t('tokens:actions.copy')} icon={ContentCopyIcon} onClick={() => void copy(token.key, t('tokens:copied'))} testId={`token-copy-${token.id}`} />
          {chatLinks.length > 0 && (
            <RowIconAction title={t('tokens:actions.chat')} icon={ChatOutlinedIcon} onClick={(event) => openChatMenu(event.currentTarget, token)} testId={`token-chat-${token.id}`} />
          )}
          {token.status === TOKEN_ENABLED ? (
            <RowTextAction label={t('tokens:actions.disable')} color="warning" onClick={() => void setTokenStatus(token, TOKEN_DISABLED)} testId={`token-disable-${token.id}`} />
          ) : (
            <Tooltip title={canEnable(token) ? '' : t(`tokens:cannotEnable.${tokenState(token)}`)}>
              <span>
                <RowTextAction
                  label={t('tokens:actions.enable')}
                  color="success"
                  disabled={!canEnable(token)}
                  onClick={() => void setTokenStatus(token, TOKEN_ENABLED)}
                  testId={`token-enable-${token.id}`}
                />
              </span>
            </Tooltip>
          )}
          <RowIconAction title={t('tokens:actions.edit')} icon={EditOutlinedIcon} onClick={() => setDrawerTarget(token.id)} testId={`token-edit-${token.id}`} />
          <RowIconAction title={t('tokens:actions.delete')} icon={DeleteOutlinedIcon} color="error" onClick={() => setPendingDelete({ kind: 'one', token })} testId={`token-delete-${token.id}`} />
        </>
      ),
    },
  ];

  return (
    <PageContainer maxWidth="xl">
      <PageHeader
        title={t('tokens:title')}
        subtitle={t('tokens:subtitle')}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDrawerTarget('add')} data-testid="add-token">
            {t('tokens:actions.add')}
          </Button>
        }
      />
      <Alert severity="info" sx={{ mb: 2 }} data-testid="token-notice">
        {t('tokens:notice')}
      </Alert>
      <Card>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ p: 2 }}>
          <SearchField label={t('tokens:search.keyword')} value={keyword} onChange={setKeyword} onSearch={search} testId="token-search-keyword" />
          <SearchField label={t('tokens:search.token')} value={tokenFilter} onChange={setTokenFilter} onSearch={search} testId="token-search-token" />
          <SearchButton onClick={search} testId="token-search-submit" />
        </Stack>
        <Stack direction="row" sx={{ px: 2, pb: 1.5, gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {selected.size > 0 ? t('tokens:selectedCount', { count: selected.size }) : ''}
          </Typography>
          <Button size="small" variant="outlined" startIcon={<ContentCopyIcon />} onClick={copySelected} data-testid="tokens-copy-selected">
            {t('tokens:actions.copySelected')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            color="error"
            startIcon={<DeleteOutlinedIcon />}
            onClick={() => (selected.size === 0 ? toast.error(t('tokens:errors.selectOne')) : setPendingDelete({ kind: 'selected' }))}
            data-testid="tokens-delete-selected"
          >
            {t('tokens:actions.deleteSelected')}
          </Button>
        </Stack>
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(token) => token.id}
          loading={loading}
          minWidth={900}
          dense
          testId="tokens-table"
          rowTestId={(token) => `token-row-${token.id}`}
          selection={{
            selected,
            onChange: setSelected,
            selectAllLabel: t('tokens:selectAll'),
            rowLabel: (token) => t('tokens:select', { name: token.name }),
            rowTestId: (token) => `token-select-${token.id}`,
          }}
          pagination={pagination}
        />
      </Card>
      <Menu anchorEl={chatMenu?.anchor} open={!!chatMenu} onClose={() => setChatMenu(null)}>
        {chatLinks.map((link) => (
          <MenuItem key={link.name} onClick={() => chatMenu && openChat(link.url, chatMenu.token)}>
            <ListItemText primary={link.name} />
          </MenuItem>
        ))}
      </Menu>
      <TokenDrawer target={drawerTarget} onClose={closeDrawer} onSaved={() => void reload()} />
      <ConfirmDialog
        open={!!pendingDelete}
        title={t('tokens:confirm.title')}
        message={pendingDelete?.kind === 'one' ? t('tokens:confirm.one', { name: pendingDelete.token.name }) : t('tokens:confirm.selected', { count: selected.size })}
        confirmLabel={t('tokens:actions.delete')}
        danger
        onClose={() => setPendingDelete(null)}
        onConfirm={() => pendingDelete && void runDelete(pendingDelete)}
      />
    </PageContainer>
  );
}
