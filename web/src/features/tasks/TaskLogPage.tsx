import { useCallback, useState } from 'react';
import { Box, Card, Chip, CircularProgress, Link, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/CopyProvider';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { PagedTablePagination } from '../../components/table/PagedTablePagination';
import { EmptyTableRow, TableLoadingBar } from '../../components/table/TableStatus';
import { usePagedRows } from '../../components/table/usePagedRows';
import { isAdmin, useSessionUser } from '../../lib/session';
import { formatTimestamp } from '../../lib/time';
import { durationColor, progressValue, tasksApi, type GenericTask, type TaskLogFilters } from './api';
import { TaskFilters } from './TaskFilters';
import { LongTextCell, TextDialog } from './TextDialog';

type ChipColor = 'default' | 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info';
const STATUS_COLORS: Record<string, ChipColor> = { SUCCESS: 'success', NOT_START: 'default', SUBMITTED: 'warning', QUEUED: 'warning', IN_PROGRESS: 'info', FAILURE: 'error', UNKNOWN: 'default', SUBMITTING: 'default' };
const KNOWN_ACTIONS = ['MUSIC', 'LYRICS'];
const COLUMNS = ['submitTime', 'finishTime', 'progress', 'duration', 'channel', 'platform', 'type', 'taskId', 'status', 'failReason'] as const;

/** Default window: from midnight today (seconds, like the tasks' submit time). */
function defaultFilters(): TaskLogFilters {
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  return { channel_id: '', task_id: '', start_timestamp: Math.floor(midnight.getTime() / 1000), end_timestamp: 0 };
}

/** The task log (Suno): progress, timing, status, and the whole record as JSON on a click of its id. */
export function TaskLogPage() {
  const { t } = useTranslation();
  const admin = isAdmin(useSessionUser());
  const copy = useCopy();
  const [draft, setDraft] = useState<TaskLogFilters>(defaultFilters);
  const fetchTasks = useCallback((filters: TaskLogFilters, page: number, pageSize: number) => tasksApi.tasks(filters, admin, page, pageSize), [admin]);
  const { rows, loading, applyQuery, pagination } = usePagedRows(fetchTasks, draft);
  const [text, setText] = useState<{ title: string; text: string } | null>(null);
  const columns = COLUMNS.filter((key) => admin || key !== 'channel');

  function renderRow(task: GenericTask) {
    const seconds = task.finish_time && task.submit_time ? task.finish_time - task.submit_time : 0;
    // An empty status means the task is still being submitted.
    const state = task.status === '' ? 'SUBMITTING' : task.status in STATUS_COLORS ? task.status : 'UNKNOWN';
    const action = KNOWN_ACTIONS.includes(task.action) ? task.action : 'UNKNOWN';
    return (
      <TableRow hover key={task.id} data-testid={`task-row-${task.id}`}>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(task.submit_time)}</TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(task.finish_time)}</TableCell>
        <TableCell>
          <Box sx={{ position: 'relative', display: 'inline-flex' }} data-testid={`task-progress-${task.id}`}>
            <CircularProgress variant="determinate" size={36} value={progressValue(task.progress)} color={task.status === 'FAILURE' ? 'warning' : 'primary'} />
            <Box sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
              <Typography variant="caption" sx={{ fontSize: 10 }}>
                {task.progress || '0%'}
              </Typography>
            </Box>
          </Box>
        </TableCell>
        <TableCell>{seconds > 0 ? <Chip size="small" variant="outlined" color={durationColor(seconds)} label={t('tasks:seconds', { value: seconds })} /> : '-'}</TableCell>
        {admin && (
          <TableCell>
            <Chip size="small" label={task.channel_id} onClick={() => void copy(String(task.channel_id))} data-testid={`task-channel-${task.id}`} />
          </TableCell>
        )}
        <TableCell>
          <Chip size="small" color="primary" variant="outlined" label={task.platform === 'suno' ? 'Suno' : task.platform || t('tasks:unknown')} />
        </TableCell>
        <TableCell>
          <Chip size="small" label={t(`tasks:taskActions.${action}`)} />
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <Link component="button" variant="body2" onClick={() => setText({ title: task.task_id, text: JSON.stringify(task, null, 2) })} data-testid={`task-id-${task.id}`}>
            {task.task_id}
          </Link>
        </TableCell>
        <TableCell>
          <Chip size="small" color={STATUS_COLORS[state]} label={t(`tasks:taskStatuses.${state}`)} data-testid={`task-status-${task.id}`} />
        </TableCell>
        <TableCell>
          <LongTextCell text={task.fail_reason} onOpen={(value) => setText({ title: t('tasks:columns.failReason'), text: value })} />
        </TableCell>
      </TableRow>
    );
  }

  return (
    <PageContainer maxWidth="xl">
      <PageHeader title={t('tasks:taskTitle')} subtitle={t('tasks:taskSubtitle')} />
      <TaskFilters filters={draft} admin={admin} unitMs={1000} onChange={setDraft} onQuery={() => applyQuery({ ...draft })} />
      <Card>
        <TableLoadingBar loading={loading} />
        <TableContainer>
          <Table size="small" sx={{ minWidth: 1000, '& td, & th': { px: 1.25 } }} data-testid="tasks-table">
            <TableHead>
              <TableRow>
                {columns.map((key) => (
                  <TableCell key={key} sx={{ whiteSpace: 'nowrap' }}>
                    {t(`tasks:columns.${key}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map(renderRow)}
              {!loading && rows.length === 0 && <EmptyTableRow colSpan={columns.length} />}
            </TableBody>
          </Table>
        </TableContainer>
        <PagedTablePagination {...pagination} />
      </Card>
      <TextDialog title={text?.title ?? ''} text={text?.text ?? null} onClose={() => setText(null)} />
    </PageContainer>
  );
}
