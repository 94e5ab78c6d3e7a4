import { Fragment, useCallback, useEffect, useState } from 'react';
import {
  Box,
  Button,
  Card,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  Link,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { DateTimeFilterField } from '../../components/DateTimeFilterField';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { ColumnsMenu, useColumnVisibility } from '../../components/table/ColumnsMenu';
import { PagedTablePagination } from '../../components/table/PagedTablePagination';
import { EmptyTableRow, TableLoadingBar } from '../../components/table/TableStatus';
import { useWindowedRows } from '../../components/table/useWindowedRows';
import { usePagedRows } from '../../components/table/usePagedRows';
import { quotaPerUnit, renderNumber, renderQuota } from '../../lib/quota';
import { isAdmin, useSessionUser } from '../../lib/session';
import { withToggled } from '../../lib/sets';
import { StorageKey } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { formatTimestamp } from '../../lib/time';
import { ChargeDetail } from './ChargeDetail';
import { isBillable, LOG_TYPES, logsApi, parseOther, type LogEntry, type LogFilters, type LogStat, type UserInfo } from './api';
import { downloadCsv, fetchRowsForExport, logsCsv } from './exportCsv';
import { logRowText } from './logText';

const COLUMNS_KEY = 'logs-table-columns';
const OPTIONAL_COLUMNS = ['time', 'channel', 'user', 'token', 'group', 'type', 'model', 'duration', 'prompt', 'completion', 'cost', 'retry', 'details'] as const;
const ADMIN_COLUMNS = new Set(['channel', 'user', 'retry']);
/** The adjacent columns only a charge fills; other entries show their text across them. */
const CHARGE_COLUMNS = ['model', 'duration', 'prompt', 'completion', 'cost'] as const;

/** The default window: from the start of today to one hour from now. */
function defaultFilters(): LogFilters {
  const dayStart = new Date();
  dayStart.setHours(0, 0, 0, 0);
  return {
    token_name: '',
    model_name: '',
    group: '',
    type: 0,
    start_timestamp: Math.floor(dayStart.getTime() / 1000),
    end_timestamp: Math.floor(Date.now() / 1000) + 3600,
    username: '',
    channel: '',
    subscription_id: '',
  };
}

/** Cost with six decimals: single requests are often fractions of a cent. */
function renderCost(quota: number): string {
  const currency = localStorage.getItem(StorageKey.displayInCurrency) !== 'false';
  return currency ? `$${(quota / quotaPerUnit()).toFixed(6)}` : renderQuota(quota);
}

type Band = 'success' | 'warning' | 'error';
/** Request duration: under 101 s green, under 300 s orange, else red. */
const durationBand = (seconds: number): Band => (seconds < 101 ? 'success' : seconds < 300 ? 'warning' : 'error');
/** First-token time: under 3 s green, under 10 s orange, else red. */
const firstTokenBand = (ms: number): Band => (ms < 3000 ? 'success' : ms < 10000 ? 'warning' : 'error');

const TYPE_COLORS: Record<number, 'success' | 'primary' | 'warning' | 'secondary' | 'default'> = { 1: 'success', 2: 'primary', 3: 'warning', 4: 'secondary' };

function UserInfoDialog({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [info, setInfo] = useState<UserInfo | null>(null);
  useEffect(() => {
    if (userId === null) return;
    setInfo(null);
    void logsApi.user(userId).then((result) => result.ok && setInfo(result.data));
  }, [userId]);
  return (
    <Dialog open={userId !== null} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('logs:userInfo.title')}</DialogTitle>
      <DialogContent data-testid="log-user-info">
        {info ? (
          <Stack spacing={1}>
            <Typography>{t('logs:userInfo.username', { value: info.username })}</Typography>
            <Typography>{t('logs:userInfo.group', { value: info.group })}</Typography>
            <Typography>{t('logs:userInfo.quota', { value: renderQuota(info.quota) })}</Typography>
            <Typography>{t('logs:userInfo.used', { value: renderQuota(info.used_quota) })}</Typography>
            <Typography>{t('logs:userInfo.requests', { value: renderNumber(info.request_count) })}</Typography>
          </Stack>
        ) : (
          <LinearProgress />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** Usage log: filters, statistics, and entries whose charge can be expanded and explained. */
export function LogsPage() {
  const { t, i18n } = useTranslation();
  const admin = isAdmin(useSessionUser());
  const [draft, setDraft] = useState<LogFilters>(defaultFilters);
  const [stat, setStat] = useState<LogStat | null>(null);
  // The statistics share the table's filters, so they are asked together and the table shows loading until both are in.
  const fetchLogs = useCallback(
    async (filters: LogFilters, page: number, pageSize: number) => {
      const [list, stats] = await Promise.all([logsApi.list(filters, admin, page, pageSize), logsApi.stat(filters, admin)]);
      if (stats.ok) setStat(stats.data);
      return list;
    },
    [admin],
  );
  const { rows, loading, query, applyQuery, pagination } = usePagedRows(fetchLogs, draft);
  const [exporting, setExporting] = useState(false);
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [userInfoId, setUserInfoId] = useState<number | null>(null);
  const columns = useColumnVisibility(COLUMNS_KEY, ['details']);

  function search() {
    setExpanded(new Set());
    applyQuery({ ...draft });
  }

  function reset() {
    const fresh = defaultFilters();
    setDraft(fresh);
    applyQuery(fresh);
  }

  /** The rows of the applied filters as a CSV file, written in the exporter's language. */
  async function exportCsv() {
    setExporting(true);
    try {
      const exported = await fetchRowsForExport(query, admin);
      // A failed page has already been toasted by the API client.
      if (!exported) return;
      downloadCsv(logsCsv(exported.rows, admin, i18n));
      if (exported.capped) toast.warning(t('logs:exportCapped', { rows: exported.rows.length }));
      else toast.success(t('logs:exportDone', { rows: exported.rows.length }));
    } finally {
      setExporting(false);
    }
  }

  const update = (change: Partial<LogFilters>) => setDraft((previous) => ({ ...previous, ...change }));
  const show = (key: string) => (admin || !ADMIN_COLUMNS.has(key)) && columns.isVisible(key);
  const optionalColumns = OPTIONAL_COLUMNS.filter((key) => admin || !ADMIN_COLUMNS.has(key));
  const columnCount = 1 + optionalColumns.filter((key) => show(key)).length;
  // A page of 100 rows renders only those on screen (see useWindowedRows).
  const windowedRows = useWindowedRows(rows, columnCount);
  const chargeSpan = CHARGE_COLUMNS.filter((key) => show(key)).length;

  function renderRow(log: LogEntry) {
    const other = parseOther(log.other);
    const text = logRowText(log, other, i18n);
    const billable = isBillable(log);
    const isOpen = expanded.has(log.id);
    const retries = other.admin_info?.use_channel ?? [];
    return (
      <Fragment key={log.id}>
        <TableRow hover data-testid={`log-row-${log.id}`} sx={{ '& > td': { borderBottom: isOpen ? 0 : undefined } }}>
          <TableCell padding="checkbox">
            <IconButton
              size="small"
              aria-label={t('logs:expand')}
              onClick={() => setExpanded((previous) => withToggled(previous, log.id))}
              data-testid={`log-expand-${log.id}`}
            >
              {isOpen ? <KeyboardArrowDownIcon fontSize="small" /> : <KeyboardArrowRightIcon fontSize="small" />}
            </IconButton>
          </TableCell>
          {show('time') && <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(log.created_at)}</TableCell>}
          {show('channel') && (
            <TableCell>
              {billable && log.channel ? (
                <Tooltip title={log.channel_name ?? ''}>
                  <Chip size="small" variant="outlined" label={log.channel} data-testid={`log-channel-${log.id}`} />
                </Tooltip>
              ) : null}
            </TableCell>
          )}
          {show('user') && (
            <TableCell>
              <Link component="button" variant="body2" onClick={() => setUserInfoId(log.user_id)} data-testid={`log-user-${log.id}`}>
                {log.username}
              </Link>
            </TableCell>
          )}
          {show('token') && <TableCell>{billable && log.token_name ? <Chip size="small" variant="outlined" label={log.token_name} /> : null}</TableCell>}
          {show('group') && <TableCell>{log.group}</TableCell>}
          {show('type') && (
            <TableCell>
              <Chip size="small" color={TYPE_COLORS[log.type] ?? 'default'} variant="outlined" label={t(`logs:types.${(LOG_TYPES as readonly number[]).includes(log.type) ? log.type : 0}`)} />
            </TableCell>
          )}
          {!billable && chargeSpan > 0 ? (
            // A top-up, admin or system entry has no model, timing or charge: its text says what happened.
            <TableCell colSpan={chargeSpan} data-testid={`log-content-${log.id}`}>
              <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 560 }} noWrap title={text}>
                {text}
              </Typography>
            </TableCell>
          ) : (
            <>
              {show('model') && (
                <TableCell>
                  {billable && log.model_name ? (
                    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                      <Chip size="small" label={log.model_name} />
                      {other.is_model_mapped && other.upstream_model_name && (
                        <Tooltip title={t('logs:detail.mapped', { from: log.model_name, to: other.upstream_model_name })}>
                          <Chip size="small" variant="outlined" label={`→ ${other.upstream_model_name}`} />
                        </Tooltip>
                      )}
                    </Stack>
                  ) : null}
                </TableCell>
              )}
              {show('duration') && (
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {billable && (
                    <Stack direction="row" spacing={0.5}>
                      <Chip size="small" color={durationBand(log.use_time)} variant="outlined" label={t('logs:seconds', { value: log.use_time })} data-testid={`log-duration-${log.id}`} />
                      {log.is_stream && (other.frt ?? -1) >= 0 && (
                        <Tooltip title={t('logs:firstToken')}>
                          <Chip size="small" color={firstTokenBand(other.frt ?? 0)} variant="outlined" label={t('logs:seconds', { value: ((other.frt ?? 0) / 1000).toFixed(1) })} data-testid={`log-frt-${log.id}`} />
                        </Tooltip>
                      )}
                      <Chip size="small" variant="outlined" label={log.is_stream ? t('logs:stream') : t('logs:nonStream')} />
                    </Stack>
                  )}
                </TableCell>
              )}
              {show('prompt') && <TableCell align="right">{billable ? log.prompt_tokens : ''}</TableCell>}
              {show('completion') && <TableCell align="right">{billable ? log.completion_tokens : ''}</TableCell>}
              {show('cost') && (
                <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} data-testid={`log-cost-${log.id}`}>
                  {billable ? renderCost(log.quota) : ''}
                </TableCell>
              )}
            </>
          )}
          {show('retry') && (
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {retries.length > 1 ? (
                <Tooltip title={t('logs:retryTooltip')}>
                  <Typography variant="body2">{retries.join(' → ')}</Typography>
                </Tooltip>
              ) : null}
            </TableCell>
          )}
          {show('details') && (
            <TableCell sx={{ maxWidth: 280 }}>
              <Typography variant="body2" noWrap title={text} data-testid={`log-text-${log.id}`}>
                {text}
              </Typography>
            </TableCell>
          )}
        </TableRow>
        {isOpen && (
          <TableRow>
            <TableCell colSpan={columnCount} sx={{ bgcolor: 'background.default' }}>
              <ChargeDetail log={log} other={other} admin={admin} />
            </TableCell>
          </TableRow>
        )}
      </Fragment>
    );
  }

  return (
    <PageContainer maxWidth="xl">
      <PageHeader title={t('logs:title')} subtitle={admin ? t('logs:subtitleAdmin') : t('logs:subtitle')} />
      <Card sx={{ mb: 2 }}>
        <Box sx={{ p: 2, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
          <TextField label={t('logs:filters.tokenName')} value={draft.token_name} onChange={(event) => update({ token_name: event.target.value })} slotProps={{ htmlInput: { 'data-testid': 'log-filter-token' } }} />
          <TextField label={t('logs:filters.modelName')} value={draft.model_name} onChange={(event) => update({ model_name: event.target.value })} slotProps={{ htmlInput: { 'data-testid': 'log-filter-model' } }} />
          <DateTimeFilterField label={t('logs:filters.start')} value={draft.start_timestamp} onChange={(start_timestamp) => update({ start_timestamp })} testId="log-filter-start" />
          <DateTimeFilterField label={t('logs:filters.end')} value={draft.end_timestamp} onChange={(end_timestamp) => update({ end_timestamp })} testId="log-filter-end" />
          <TextField label={t('logs:filters.group')} value={draft.group} onChange={(event) => update({ group: event.target.value })} slotProps={{ htmlInput: { 'data-testid': 'log-filter-group' } }} />
          <TextField
            label={t('logs:filters.subscription')}
            value={draft.subscription_id}
            onChange={(event) => update({ subscription_id: event.target.value.replace(/\D/g, '') })}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'log-filter-subscription' } }}
          />
          <TextField select label={t('logs:filters.type')} value={draft.type} onChange={(event) => update({ type: Number(event.target.value) })} data-testid="log-filter-type">
            <MenuItem value={0}>{t('logs:types.all')}</MenuItem>
            {LOG_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {t(`logs:types.${type}`)}
              </MenuItem>
            ))}
          </TextField>
          {admin && (
            <>
              <TextField label={t('logs:filters.channel')} value={draft.channel} onChange={(event) => update({ channel: event.target.value.replace(/\D/g, '') })} slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'log-filter-channel' } }} />
              <TextField label={t('logs:filters.username')} value={draft.username} onChange={(event) => update({ username: event.target.value })} slotProps={{ htmlInput: { 'data-testid': 'log-filter-username' } }} />
            </>
          )}
        </Box>
        <Stack direction={{ xs: 'column', md: 'row' }} sx={{ px: 2, pb: 2, gap: 1.5, alignItems: { md: 'center' } }}>
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', flex: 1 }} data-testid="log-stat">
            <Chip color="primary" label={t('logs:stat.quota', { value: stat ? renderQuota(stat.quota) : '-' })} data-testid="log-stat-quota" />
            <Chip color="secondary" variant="outlined" label={t('logs:stat.rpm', { value: stat?.rpm ?? '-' })} />
            <Chip color="secondary" variant="outlined" label={t('logs:stat.tpm', { value: stat?.tpm ?? '-' })} />
          </Stack>
          <Stack direction="row" sx={{ gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}>
            <Button color="inherit" startIcon={<RestartAltIcon />} onClick={reset}>
              {t('logs:reset')}
            </Button>
            <Button color="inherit" startIcon={<FileDownloadOutlinedIcon />} onClick={() => void exportCsv()} disabled={exporting} data-testid="log-export">
              {t('logs:export')}
            </Button>
            <ColumnsMenu label={t('logs:columnsMenu')} columns={optionalColumns.map((key) => ({ key, label: t(`logs:columns.${key}`) }))} isVisible={columns.isVisible} onToggle={columns.toggle} />
            <Button variant="contained" startIcon={<SearchIcon />} onClick={search} data-testid="log-search">
              {t('logs:query')}
            </Button>
          </Stack>
        </Stack>
      </Card>
      <Card>
        <TableLoadingBar loading={loading} />
        <TableContainer>
          <Table size="small" sx={{ minWidth: admin ? 1060 : 880, '& td, & th': { px: 1.25 } }} data-testid="logs-table">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox" />
                {optionalColumns.filter((key) => show(key)).map((key) => (
                  <TableCell key={key} align={key === 'prompt' || key === 'completion' || key === 'cost' ? 'right' : undefined}>
                    {t(`logs:columns.${key}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody ref={windowedRows.bodyRef}>
              {windowedRows.spacerBefore}
              {windowedRows.items.map(renderRow)}
              {windowedRows.spacerAfter}
              {!loading && rows.length === 0 && <EmptyTableRow colSpan={columnCount} />}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedTablePagination {...pagination} />
      </Card>
      {admin && <UserInfoDialog userId={userInfoId} onClose={() => setUserInfoId(null)} />}
    </PageContainer>
  );
}
