import { Fragment, useCallback, useEffect, useMemo, useState } from 'react';
import {
  Box,
  Button,
  Card,
  Checkbox,
  Chip,
  FormControlLabel,
  IconButton,
  Menu,
  MenuItem,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import AddIcon from '@mui/icons-material/Add';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import BuildOutlinedIcon from '@mui/icons-material/BuildOutlined';
import ContentCopyOutlinedIcon from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import PlayArrowOutlinedIcon from '@mui/icons-material/PlayArrowOutlined';
import SearchIcon from '@mui/icons-material/Search';
import SpeedOutlinedIcon from '@mui/icons-material/SpeedOutlined';
import TravelExploreOutlinedIcon from '@mui/icons-material/TravelExploreOutlined';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { GroupFilter } from '../../components/GroupFilter';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { SearchField } from '../../components/SearchField';
import { ColumnsMenu, useColumnVisibility } from '../../components/table/ColumnsMenu';
import { PagedTablePagination } from '../../components/table/PagedTablePagination';
import { RowIconAction } from '../../components/table/RowIconAction';
import { SelectAllCheckbox } from '../../components/table/SelectAllCheckbox';
import { stickyActionsSx } from '../../components/table/stickyColumn';
import { EmptyTableRow, TableLoadingBar } from '../../components/table/TableStatus';
import { useWindowedRows } from '../../components/table/useWindowedRows';
import { usePagedRows } from '../../components/table/usePagedRows';
import { renderQuota } from '../../lib/quota';
import { withToggled } from '../../lib/sets';
import { toast } from '../../lib/toast';
import { CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED, channelsApi, isTagRow, type Channel, type ChannelTagRow } from './api';
import { ChannelEditorDrawer } from './ChannelEditorDrawer';
import { channelTypeRow, isRelayable } from '@shared/channel-types';
import { channelTypeName, renderBalance } from './channelTypes';
import { InlineNumberField, isValidPriority, isValidWeight } from './InlineNumberField';
import { ChannelHealthChip, ChannelStatusChip, ResponseTimeChip } from './labels';
import { SetTagDialog } from './SetTagDialog';
import { TagEditDrawer } from './TagEditDrawer';
import { UpstreamDetectionDialog } from './UpstreamDetectionDialog';

const COLUMNS_KEY = 'channels-table-columns';
const ID_SORT_KEY = 'id-sort';
const TAG_MODE_KEY = 'tag-mode';
const OPTIONAL_COLUMNS = ['id', 'type', 'group', 'models', 'status', 'responseTime', 'balance', 'priority', 'weight', 'health'] as const;
/** The type also shows under the name, so its own column starts hidden to leave room for priority and weight. */
const HIDDEN_BY_DEFAULT = ['type'];

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function ListChips({ text, max, color }: { text: string; max: number; color?: 'primary' | 'default' }) {
  const items = splitList(text);
  const rest = items.length - max;
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, maxWidth: 260 }}>
      {items.slice(0, max).map((item) => (
        <Chip key={item} size="small" label={item} color={color} variant="outlined" sx={{ maxWidth: 200 }} />
      ))}
      {rest > 0 && (
        <Tooltip title={items.slice(max).join(', ')}>
          <Chip size="small" label={`+${rest}`} />
        </Tooltip>
      )}
    </Stack>
  );
}

type PendingConfirm = { kind: 'delete'; channel: Channel } | { kind: 'deleteSelected' } | { kind: 'deleteDisabled' };

/** The models a channel serves, from its comma list, for the "test with a model" menu. */
function channelModels(channel: Channel): string[] {
  return [...new Set(channel.models.split(',').map((model) => model.trim()).filter(Boolean))];
}

/** Admin channel list: search, tag mode, in-place priority and weight, tests, batch actions, and the editor drawers. */
export function ChannelsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const params = useParams();
  const editorTarget = pathname.endsWith('/channel/add') ? 'add' : params.id ? Number(params.id) : null;

  const { rows, setRows, loading, query, applyQuery, reload, pagination } = usePagedRows(channelsApi.list, () => ({
    keyword: '',
    group: '',
    model: '',
    idSort: localStorage.getItem(ID_SORT_KEY) === 'true',
    tagMode: localStorage.getItem(TAG_MODE_KEY) === 'true',
  }));
  const [keyword, setKeyword] = useState('');
  const [group, setGroup] = useState('');
  const [model, setModel] = useState('');
  const [groups, setGroups] = useState<string[]>([]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [expandedTags, setExpandedTags] = useState<Set<string>>(new Set());
  const [testing, setTesting] = useState<Set<number>>(new Set());
  /** The open "test with a model" menu: which channel, and the button it hangs from. */
  const [modelTest, setModelTest] = useState<{ anchor: HTMLElement; channel: Channel } | null>(null);
  const [confirm, setConfirm] = useState<PendingConfirm | null>(null);
  const [setTagOpen, setSetTagOpen] = useState(false);
  const [editingTag, setEditingTag] = useState<ChannelTagRow | null>(null);
  const [detecting, setDetecting] = useState<Channel | null>(null);
  const columns = useColumnVisibility(COLUMNS_KEY, HIDDEN_BY_DEFAULT);
  const closeEditor = useCallback(() => navigate('/channel'), [navigate]);

  useEffect(() => {
    void channelsApi.groups().then((result) => result.ok && setGroups(result.data ?? []));
  }, []);

  const visibleChannels = useMemo(() => rows.flatMap((row) => (isTagRow(row) ? row.children : [row])), [rows]);

  function search() {
    setSelected(new Set());
    applyQuery((previous) => ({ ...previous, keyword: keyword.trim(), group, model: model.trim() }));
  }

  function setFlag(flag: 'idSort' | 'tagMode', value: boolean) {
    localStorage.setItem(flag === 'idSort' ? ID_SORT_KEY : TAG_MODE_KEY, String(value));
    applyQuery((previous) => ({ ...previous, [flag]: value }));
  }

  /** Replaces one channel in the rows (also inside tag rows) after a patch. */
  function replaceChannel(channel: Channel) {
    const swap = (item: Channel) => (item.id === channel.id ? { ...item, ...channel } : item);
    setRows((previous) => previous.map((row) => (isTagRow(row) ? { ...row, children: row.children.map(swap) } : swap(row))));
  }

  async function patch(channel: Channel, change: { status?: number; priority?: number; weight?: number }): Promise<boolean> {
    const result = await channelsApi.patch({ id: channel.id, ...change });
    if (!result.ok) return false;
    replaceChannel(result.data ?? { ...channel, ...change });
    toast.success(t('channels:saved'));
    return true;
  }

  /** Tests the channel with `model`, or with its test model (the server's choice) when none is given. */
  async function testChannel(channel: Channel, model?: string) {
    setTesting((previous) => new Set(previous).add(channel.id));
    const result = await channelsApi.test(channel.id, model);
    setTesting((previous) => {
      const next = new Set(previous);
      next.delete(channel.id);
      return next;
    });
    if (result.success) {
      replaceChannel({ ...channel, response_time: Math.round(result.time * 1000), test_time: Math.floor(Date.now() / 1000) });
      toast.success(t('channels:test.success', { name: channel.name, seconds: result.time.toFixed(2) }));
    } else {
      // Name the channel, as the success message does: after "test all" several answers arrive one after another.
      toast.error(t('channels:test.failed', { name: channel.name, message: result.message }));
    }
  }

  /** Copies the channel (key included) and opens the copy in the editor. */
  async function copyChannel(channel: Channel) {
    const result = await channelsApi.copy(channel.id, t('channels:copySuffix'));
    if (!result.ok) {
      toast.error(t('channels:errors.copyFailed', { message: result.message }));
      return;
    }
    toast.success(t('channels:copied', { name: result.data.name }));
    void reload();
    navigate(`/channel/edit/${result.data.id}`);
  }

  async function fixAbilities() {
    const result = await channelsApi.fixAbilities();
    if (!result.ok) return;
    toast.success(t('channels:abilitiesFixed', { count: result.data }));
    void reload();
  }

  async function updateBalance(channel: Channel) {
    const result = await channelsApi.updateBalance(channel.id);
    if (!result.ok) return;
    replaceChannel({ ...channel, ...result.data });
    toast.success(t('channels:balanceUpdated', { name: channel.name, value: renderBalance(channel.type, result.data.balance) }));
  }

  async function updateAllBalances() {
    const result = await channelsApi.updateAllBalances();
    if (!result.ok) return;
    toast.success(t('channels:balancesUpdated', { count: result.data.updated }));
    void reload();
  }

  async function testAll() {
    const result = await channelsApi.testAll();
    if (result.ok) toast.info(result.message || t('channels:test.allStarted'));
  }

  async function runConfirmed(pending: PendingConfirm) {
    setConfirm(null);
    if (pending.kind === 'delete') {
      const result = await channelsApi.remove(pending.channel.id);
      if (result.ok) toast.success(t('channels:deleted'));
    } else if (pending.kind === 'deleteSelected') {
      const result = await channelsApi.removeMany([...selected]);
      if (result.ok) toast.success(t('channels:deletedCount', { count: result.data }));
      setSelected(new Set());
    } else {
      const result = await channelsApi.removeDisabled();
      if (result.ok) toast.success(t('channels:deletedDisabled', { count: result.data }));
    }
    void reload();
  }

  async function setTagStatus(row: ChannelTagRow, enable: boolean) {
    const result = enable ? await channelsApi.enableTag(row.tag) : await channelsApi.disableTag(row.tag);
    if (result.ok) {
      toast.success(t('common:operationDone'));
      void reload();
    }
  }

  function toggleSelected(id: number) {
    setSelected((previous) => withToggled(previous, id));
  }

  const show = columns.isVisible;
  const columnCount = 3 + OPTIONAL_COLUMNS.filter((key) => show(key)).length;
  // A page of 100 rows renders only those on screen (see useWindowedRows).
  const windowedRows = useWindowedRows(rows, columnCount);

  const priorityError = (text: string) => (isValidPriority(text) ? null : t('channels:validation.priority'));
  const weightError = (text: string) => (isValidWeight(text) ? null : t('channels:validation.weight'));

  function renderChannelRow(channel: Channel, nested: boolean) {
    const disabled = channel.status !== CHANNEL_ENABLED;
    return (
      <TableRow key={channel.id} hover data-testid={`channel-row-${channel.id}`} sx={{ '& > td:not(:last-of-type)': { opacity: disabled ? 0.55 : 1 } }}>
        <TableCell padding="checkbox">
          <Checkbox size="small" checked={selected.has(channel.id)} onChange={() => toggleSelected(channel.id)} slotProps={{ input: { 'aria-label': t('channels:select', { name: channel.name }) } }} data-testid={`channel-select-${channel.id}`} />
        </TableCell>
        {show('id') && <TableCell>{channel.id}</TableCell>}
        <TableCell sx={{ pl: nested ? 4 : undefined }}>
          <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
            {channel.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {channelTypeName(channel.type)}
            {!isRelayable(channelTypeRow(channel.type)) ? ` · ${t('channels:retiredType')}` : ''}
            {channel.tag && !nested ? ` · #${channel.tag}` : ''}
          </Typography>
        </TableCell>
        {show('type') && <TableCell sx={{ whiteSpace: 'nowrap' }}>{channelTypeName(channel.type)}</TableCell>}
        {show('group') && (
          <TableCell>
            <ListChips text={channel.group} max={3} color="primary" />
          </TableCell>
        )}
        {show('models') && (
          <TableCell>
            <ListChips text={channel.models} max={1} />
          </TableCell>
        )}
        {show('status') && (
          <TableCell>
            <ChannelStatusChip status={channel.status} otherInfo={channel.other_info} testId={`channel-status-${channel.id}`} />
          </TableCell>
        )}
        {show('responseTime') && (
          <TableCell>
            <ResponseTimeChip ms={channel.response_time} testing={testing.has(channel.id)} onTest={() => void testChannel(channel)} testId={`channel-time-${channel.id}`} />
          </TableCell>
        )}
        {show('balance') && (
          <TableCell sx={{ whiteSpace: 'nowrap' }}>
            <Typography variant="body2">{t('channels:usedQuota', { value: renderQuota(channel.used_quota) })}</Typography>
            <Tooltip title={t('channels:actions.updateBalance')}>
              <Typography
                component="button"
                variant="caption"
                color="text.secondary"
                onClick={() => void updateBalance(channel)}
                data-testid={`channel-balance-${channel.id}`}
                sx={{ display: 'block', border: 0, p: 0, background: 'none', cursor: 'pointer', textDecoration: 'underline dotted' }}
              >
                {t('channels:balance', { value: renderBalance(channel.type, channel.balance) })}
              </Typography>
            </Tooltip>
          </TableCell>
        )}
        {show('priority') && (
          <TableCell>
            <InlineNumberField value={channel.priority} label={t('channels:columns.priority')} validate={priorityError} onCommit={(priority) => patch(channel, { priority })} testId={`channel-priority-${channel.id}`} />
          </TableCell>
        )}
        {show('weight') && (
          <TableCell>
            <InlineNumberField value={channel.weight} label={t('channels:columns.weight')} validate={weightError} onCommit={(weight) => patch(channel, { weight })} testId={`channel-weight-${channel.id}`} />
          </TableCell>
        )}
        {show('health') && (
          <TableCell>
            <ChannelHealthChip channel={channel} testId={`channel-health-${channel.id}`} />
          </TableCell>
        )}
        <TableCell align="right" sx={stickyActionsSx}>
          <RowIconAction title={t('channels:actions.test')} icon={PlayArrowOutlinedIcon} onClick={() => void testChannel(channel)} disabled={testing.has(channel.id)} testId={`channel-test-${channel.id}`} />
          <RowIconAction
            title={t('channels:actions.testWithModel')}
            icon={ArrowDropDownIcon}
            onClick={(event) => setModelTest({ anchor: event.currentTarget, channel })}
            disabled={testing.has(channel.id)}
            testId={`channel-test-model-${channel.id}`}
          />
          <RowIconAction title={t('channels:actions.testUpstream')} icon={TravelExploreOutlinedIcon} onClick={() => setDetecting(channel)} testId={`channel-test-upstream-${channel.id}`} />
          {channel.status === CHANNEL_ENABLED ? (
            <Button size="small" color="warning" onClick={() => void patch(channel, { status: CHANNEL_MANUALLY_DISABLED })} data-testid={`channel-disable-${channel.id}`} sx={{ minWidth: 0 }}>
              {t('channels:actions.disable')}
            </Button>
          ) : (
            <Button size="small" color="success" onClick={() => void patch(channel, { status: CHANNEL_ENABLED })} data-testid={`channel-enable-${channel.id}`} sx={{ minWidth: 0 }}>
              {t('channels:actions.enable')}
            </Button>
          )}
          <RowIconAction title={t('channels:actions.copy')} icon={ContentCopyOutlinedIcon} onClick={() => void copyChannel(channel)} testId={`channel-copy-${channel.id}`} />
          <RowIconAction title={t('channels:actions.edit')} icon={EditOutlinedIcon} onClick={() => navigate(`/channel/edit/${channel.id}`)} testId={`channel-edit-${channel.id}`} />
          <RowIconAction title={t('channels:actions.delete')} icon={DeleteOutlineIcon} color="error" onClick={() => setConfirm({ kind: 'delete', channel })} testId={`channel-delete-${channel.id}`} />
        </TableCell>
      </TableRow>
    );
  }

  function renderTagRow(row: ChannelTagRow) {
    const expanded = expandedTags.has(row.tag);
    const childIds = row.children.map((child) => child.id);
    const allChildrenSelected = childIds.length > 0 && childIds.every((id) => selected.has(id));
    const toggleExpanded = () => setExpandedTags((previous) => withToggled(previous, row.tag));
    return (
      <Fragment key={`tag-${row.tag}`}>
        <TableRow hover data-testid={`tag-row-${row.tag}`}>
          <TableCell padding="checkbox">
            <Checkbox
              size="small"
              checked={allChildrenSelected}
              onChange={() =>
                setSelected((previous) => {
                  const next = new Set(previous);
                  childIds.forEach((id) => (allChildrenSelected ? next.delete(id) : next.add(id)));
                  return next;
                })
              }
              slotProps={{ input: { 'aria-label': t('channels:select', { name: row.tag }) } }}
            />
          </TableCell>
          {show('id') && (
            <TableCell>
              <IconButton size="small" onClick={toggleExpanded} aria-label={t('channels:tag.expand')} data-testid={`tag-expand-${row.tag}`}>
                {expanded ? <KeyboardArrowDownIcon fontSize="small" /> : <KeyboardArrowRightIcon fontSize="small" />}
              </IconButton>
            </TableCell>
          )}
          <TableCell>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              {!show('id') && (
                <IconButton size="small" onClick={toggleExpanded} aria-label={t('channels:tag.expand')} data-testid={`tag-expand-${row.tag}`}>
                  {expanded ? <KeyboardArrowDownIcon fontSize="small" /> : <KeyboardArrowRightIcon fontSize="small" />}
                </IconButton>
              )}
              <Chip size="small" color="secondary" icon={<LocalOfferOutlinedIcon />} label={row.tag} />
            </Stack>
          </TableCell>
          {show('type') && <TableCell />}
          {show('group') && <TableCell />}
          {show('models') && <TableCell />}
          {show('status') && (
            <TableCell data-testid={`tag-count-${row.tag}`} sx={{ whiteSpace: 'nowrap' }}>
              <Typography variant="body2">{t('channels:tag.enabledCount', { enabled: row.enabled_count, total: row.channel_count })}</Typography>
            </TableCell>
          )}
          {show('responseTime') && <TableCell />}
          {show('balance') && <TableCell />}
          {show('priority') && (
            <TableCell align="right">
              <Tooltip title={t('channels:tag.priorityHint')}>
                <Typography variant="body2" data-testid={`tag-priority-${row.tag}`} sx={{ pr: 1 }}>
                  {row.priority}
                </Typography>
              </Tooltip>
            </TableCell>
          )}
          {show('weight') && (
            <TableCell align="right">
              <Tooltip title={t('channels:tag.weightHint')}>
                <Typography variant="body2" data-testid={`tag-weight-${row.tag}`} sx={{ pr: 1 }}>
                  {row.weight}
                </Typography>
              </Tooltip>
            </TableCell>
          )}
          {show('health') && <TableCell />}
          <TableCell align="right" sx={stickyActionsSx}>
            <Button size="small" color="success" onClick={() => void setTagStatus(row, true)} data-testid={`tag-enable-${row.tag}`} sx={{ minWidth: 0 }}>
              {t('channels:tag.enableAll')}
            </Button>
            <Button size="small" color="warning" onClick={() => void setTagStatus(row, false)} data-testid={`tag-disable-${row.tag}`} sx={{ minWidth: 0 }}>
              {t('channels:tag.disableAll')}
            </Button>
            <RowIconAction title={t('channels:tag.edit')} icon={EditOutlinedIcon} onClick={() => setEditingTag(row)} testId={`tag-edit-${row.tag}`} />
          </TableCell>
        </TableRow>
        {expanded && row.children.map((child) => renderChannelRow(child, true))}
      </Fragment>
    );
  }

  return (
    <PageContainer maxWidth="xl">
      <PageHeader
        title={t('channels:title')}
        subtitle={t('channels:subtitle')}
        actions={
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
            <Button variant="outlined" startIcon={<AccountBalanceWalletOutlinedIcon />} onClick={() => void updateAllBalances()} data-testid="channels-update-balances">
              {t('channels:actions.updateAllBalances')}
            </Button>
            <Button variant="outlined" startIcon={<BuildOutlinedIcon />} onClick={() => void fixAbilities()} data-testid="channels-fix-abilities">
              {t('channels:actions.fixAbilities')}
            </Button>
            <Button variant="outlined" startIcon={<SpeedOutlinedIcon />} onClick={() => void testAll()} data-testid="channels-test-all">
              {t('channels:actions.testAll')}
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => navigate('/channel/add')} data-testid="add-channel">
              {t('channels:actions.add')}
            </Button>
          </Stack>
        }
      />
      <Card>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ p: 2 }}>
          <SearchField label={t('channels:search.keyword')} value={keyword} onChange={setKeyword} onSearch={search} testId="channel-search-keyword" />
          <GroupFilter
            label={t('channels:search.group')}
            allLabel={t('channels:search.allGroups')}
            value={group}
            onChange={setGroup}
            groups={groups}
            sx={{ minWidth: 160, maxWidth: { md: 200 } }}
            testId="channel-search-group"
          />
          <SearchField label={t('channels:search.model')} value={model} onChange={setModel} onSearch={search} testId="channel-search-model" sx={{ maxWidth: { md: 240 } }} />
          <Button variant="outlined" startIcon={<SearchIcon />} onClick={search} data-testid="channel-search-submit" sx={{ flexShrink: 0 }}>
            {t('common:actions.search')}
          </Button>
        </Stack>
        <Stack direction="row" sx={{ px: 2, pb: 1.5, flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <FormControlLabel control={<Switch size="small" checked={query.idSort} onChange={(event) => setFlag('idSort', event.target.checked)} data-testid="channels-id-sort" />} label={t('channels:idSort')} />
          <FormControlLabel control={<Switch size="small" checked={query.tagMode} onChange={(event) => setFlag('tagMode', event.target.checked)} data-testid="channels-tag-mode" />} label={t('channels:tagMode')} />
          <Box sx={{ flex: 1 }} />
          {selected.size > 0 && (
            <Typography variant="body2" color="text.secondary" data-testid="channels-selected-count">
              {t('channels:selectedCount', { count: selected.size })}
            </Typography>
          )}
          <Button
            size="small"
            color="error"
            variant="outlined"
            onClick={() => (selected.size === 0 ? toast.error(t('channels:errors.selectToDelete')) : setConfirm({ kind: 'deleteSelected' }))}
            data-testid="channels-delete-selected"
          >
            {t('channels:actions.deleteSelected')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            onClick={() => (selected.size === 0 ? toast.error(t('channels:errors.selectToTag')) : setSetTagOpen(true))}
            data-testid="channels-set-tag"
          >
            {t('channels:actions.setTag')}
          </Button>
          <Button size="small" color="error" onClick={() => setConfirm({ kind: 'deleteDisabled' })} data-testid="channels-delete-disabled">
            {t('channels:actions.deleteDisabled')}
          </Button>
          <ColumnsMenu
            label={t('channels:columnsMenu')}
            columns={OPTIONAL_COLUMNS.map((key) => ({ key, label: t(`channels:columns.${key}`) }))}
            isVisible={columns.isVisible}
            onToggle={columns.toggle}
          />
        </Stack>
        <TableLoadingBar loading={loading} />
        <TableContainer>
          <Table size="small" sx={{ minWidth: 900, '& td, & th': { px: 1.25 } }} data-testid="channels-table">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <SelectAllCheckbox
                    ids={visibleChannels.map((channel) => channel.id)}
                    selected={selected}
                    onChange={setSelected}
                    label={t('channels:selectAll')}
                    testId="channels-select-all"
                  />
                </TableCell>
                {show('id') && <TableCell>{t('channels:columns.id')}</TableCell>}
                <TableCell>{t('channels:columns.name')}</TableCell>
                {show('type') && <TableCell>{t('channels:columns.type')}</TableCell>}
                {show('group') && <TableCell>{t('channels:columns.group')}</TableCell>}
                {show('models') && <TableCell>{t('channels:columns.models')}</TableCell>}
                {show('status') && <TableCell>{t('channels:columns.status')}</TableCell>}
                {show('responseTime') && <TableCell>{t('channels:columns.responseTime')}</TableCell>}
                {show('balance') && <TableCell>{t('channels:columns.balance')}</TableCell>}
                {show('priority') && <TableCell>{t('channels:columns.priority')}</TableCell>}
                {show('weight') && <TableCell>{t('channels:columns.weight')}</TableCell>}
                {show('health') && (
                  <TableCell>
                    <Tooltip title={t('channels:health.columnHint')}>
                      <span>{t('channels:columns.health')}</span>
                    </Tooltip>
                  </TableCell>
                )}
                <TableCell align="right" sx={stickyActionsSx}>
                  {t('channels:columns.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody ref={windowedRows.bodyRef}>
              {windowedRows.spacerBefore}
              {windowedRows.items.map((row) => (isTagRow(row) ? renderTagRow(row) : renderChannelRow(row, false)))}
              {windowedRows.spacerAfter}
              {!loading && rows.length === 0 && <EmptyTableRow colSpan={columnCount} />}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedTablePagination {...pagination} />
      </Card>
      <ChannelEditorDrawer target={editorTarget} groups={groups} onClose={closeEditor} onSaved={() => void reload()} />
      <UpstreamDetectionDialog channel={detecting} onClose={() => setDetecting(null)} />
      <Menu anchorEl={modelTest?.anchor} open={modelTest !== null} onClose={() => setModelTest(null)} data-testid="channel-test-model-menu">
        {modelTest && channelModels(modelTest.channel).length === 0 && <MenuItem disabled>{t('channels:test.noModels')}</MenuItem>}
        {modelTest &&
          channelModels(modelTest.channel).map((model) => (
            <MenuItem
              key={model}
              onClick={() => {
                setModelTest(null);
                void testChannel(modelTest.channel, model);
              }}
              data-testid={`channel-test-model-option-${model}`}
            >
              {model}
            </MenuItem>
          ))}
      </Menu>
      <TagEditDrawer row={editingTag} groups={groups} onClose={() => setEditingTag(null)} onSaved={() => void reload()} />
      <SetTagDialog
        open={setTagOpen}
        ids={[...selected]}
        onClose={() => setSetTagOpen(false)}
        onDone={() => {
          setSetTagOpen(false);
          setSelected(new Set());
          void reload();
        }}
      />
      <ConfirmDialog
        open={!!confirm}
        title={t('channels:confirm.title')}
        message={
          confirm?.kind === 'delete'
            ? t('channels:confirm.delete', { name: confirm.channel.name })
            : confirm?.kind === 'deleteSelected'
              ? t('channels:confirm.deleteSelected', { count: selected.size })
              : t('channels:confirm.deleteDisabled')
        }
        confirmLabel={t('channels:actions.delete')}
        danger
        onClose={() => setConfirm(null)}
        onConfirm={() => confirm && void runConfirmed(confirm)}
      />
    </PageContainer>
  );
}
