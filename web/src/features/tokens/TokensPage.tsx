import { useCallback, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Chip,
  ListItemText,
  Menu,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ChatOutlinedIcon from '@mui/icons-material/ChatOutlined';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useCopy } from '../../components/CopyProvider';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { SearchField } from '../../components/SearchField';
import { PagedTablePagination } from '../../components/table/PagedTablePagination';
import { RowIconAction } from '../../components/table/RowIconAction';
import { SelectAllCheckbox } from '../../components/table/SelectAllCheckbox';
import { stickyActionsSx } from '../../components/table/stickyColumn';
import { EmptyTableRow, TableLoadingBar } from '../../components/table/TableStatus';
import { searchWhenFiltered, usePagedRows } from '../../components/table/usePagedRows';
import { renderQuota } from '../../lib/quota';
import { withToggled } from '../../lib/sets';
import { formatTimestamp } from '../../lib/time';
import { toast } from '../../lib/toast';
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
          <Button variant="outlined" startIcon={<SearchIcon />} onClick={search} data-testid="token-search-submit" sx={{ flexShrink: 0 }}>
            {t('common:actions.search')}
          </Button>
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
        <TableLoadingBar loading={loading} />
        <TableContainer>
          <Table size="small" sx={{ minWidth: 900, '& td, & th': { px: 1.25 } }} data-testid="tokens-table">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <SelectAllCheckbox ids={rows.map((row) => row.id)} selected={selected} onChange={setSelected} label={t('tokens:selectAll')} />
                </TableCell>
                <TableCell>{t('tokens:columns.name')}</TableCell>
                <TableCell>{t('tokens:columns.status')}</TableCell>
                <TableCell>{t('tokens:columns.used')}</TableCell>
                <TableCell>{t('tokens:columns.remaining')}</TableCell>
                <TableCell>{t('tokens:columns.group')}</TableCell>
                <TableCell>{t('tokens:columns.created')}</TableCell>
                <TableCell>{t('tokens:columns.expiry')}</TableCell>
                <TableCell align="right" sx={stickyActionsSx}>
                  {t('tokens:columns.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((token) => {
                const state = tokenState(token);
                const enabled = token.status === TOKEN_ENABLED;
                return (
                  <TableRow key={token.id} hover data-testid={`token-row-${token.id}`}>
                    <TableCell padding="checkbox">
                      <Checkbox
                        size="small"
                        checked={selected.has(token.id)}
                        onChange={() => setSelected((previous) => withToggled(previous, token.id))}
                        slotProps={{ input: { 'aria-label': t('tokens:select', { name: token.name }) } }}
                        data-testid={`token-select-${token.id}`}
                      />
                    </TableCell>
                    <TableCell>
                      <Typography variant="body2" sx={{ fontWeight: 600 }}>
                        {token.name || t('tokens:unnamed')}
                      </Typography>
                      <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', whiteSpace: 'nowrap' }}>
                        {maskKey(token.key)}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" color={STATE_COLORS[state]} label={t(`tokens:status.${state}`)} data-testid={`token-status-${token.id}`} />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{renderQuota(token.used_quota)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }} data-testid={`token-remaining-${token.id}`}>
                      {token.unlimited_quota ? t('tokens:unlimited') : renderQuota(token.remain_quota)}
                    </TableCell>
                    <TableCell>{token.group ? <Chip size="small" variant="outlined" label={token.group} /> : <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                          {t('tokens:userGroup')}
                        </Typography>}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(token.created_time)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{token.expired_time === NEVER_EXPIRES ? t('tokens:neverExpires') : formatTimestamp(token.expired_time)}</TableCell>
                    <TableCell align="right" sx={stickyActionsSx}>
                      <Button size="small" startIcon={<ContentCopyIcon fontSize="small" />} onClick={() => void copy(token.key, t('tokens:copied'))} data-testid={`token-copy-${token.id}`} sx={{ minWidth: 0 }}>
                        {t('tokens:actions.copy')}
                      </Button>
                      {chatLinks.length > 0 && (
                        <RowIconAction title={t('tokens:actions.chat')} icon={ChatOutlinedIcon} onClick={(event) => openChatMenu(event.currentTarget, token)} testId={`token-chat-${token.id}`} />
                      )}
                      {enabled ? (
                        <Button size="small" color="warning" onClick={() => void setTokenStatus(token, TOKEN_DISABLED)} data-testid={`token-disable-${token.id}`} sx={{ minWidth: 0 }}>
                          {t('tokens:actions.disable')}
                        </Button>
                      ) : (
                        <Tooltip title={canEnable(token) ? '' : t(`tokens:cannotEnable.${state}`)}>
                          <span>
                            <Button size="small" color="success" disabled={!canEnable(token)} onClick={() => void setTokenStatus(token, TOKEN_ENABLED)} data-testid={`token-enable-${token.id}`} sx={{ minWidth: 0 }}>
                              {t('tokens:actions.enable')}
                            </Button>
                          </span>
                        </Tooltip>
                      )}
                      <RowIconAction title={t('tokens:actions.edit')} icon={EditOutlinedIcon} onClick={() => setDrawerTarget(token.id)} testId={`token-edit-${token.id}`} />
                      <RowIconAction title={t('tokens:actions.delete')} icon={DeleteOutlinedIcon} color="error" onClick={() => setPendingDelete({ kind: 'one', token })} testId={`token-delete-${token.id}`} />
                    </TableCell>
                  </TableRow>
                );
              })}
              {!loading && rows.length === 0 && <EmptyTableRow colSpan={9} />}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedTablePagination {...pagination} />
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
