import { useCallback, useState } from 'react';
import { Box, Chip, CircularProgress, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { usePagedRows } from '../../components/table/usePagedRows';
import { isAdmin, useSessionUser } from '../../lib/session';
import { formatTimestamp } from '../../lib/time';
import { progressValue, tasksApi, type GenericTask, type TaskLogFilters } from './api';
import { TaskFilters } from './TaskFilters';
import { ChannelChip, DurationChip, NO_WRAP, TaskTable, type ChipColor, type TaskColumn } from './TaskTable';
import { LongTextCell, TextDialog } from './TextDialog';

const STATUS_COLORS: Record<string, ChipColor> = { SUCCESS: 'success', NOT_START: 'default', SUBMITTED: 'warning', QUEUED: 'warning', IN_PROGRESS: 'info', FAILURE: 'error', UNKNOWN: 'default', SUBMITTING: 'default' };
const KNOWN_ACTIONS = ['MUSIC', 'LYRICS'];

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
  const [draft, setDraft] = useState<TaskLogFilters>(defaultFilters);
  const fetchTasks = useCallback((filters: TaskLogFilters, page: number, pageSize: number) => tasksApi.tasks(filters, admin, page, pageSize), [admin]);
  const { rows, loading, applyQuery, pagination } = usePagedRows(fetchTasks, draft);
  const [text, setText] = useState<{ title: string; text: string } | null>(null);

  const columns: TaskColumn<GenericTask>[] = [
    { key: 'submitTime', sx: NO_WRAP, render: (task) => formatTimestamp(task.submit_time) },
    { key: 'finishTime', sx: NO_WRAP, render: (task) => formatTimestamp(task.finish_time) },
    {
      key: 'progress',
      render: (task) => (
        <Box sx={{ position: 'relative', display: 'inline-flex' }} data-testid={`task-progress-${task.id}`}>
          <CircularProgress variant="determinate" size={36} value={progressValue(task.progress)} color={task.status === 'FAILURE' ? 'warning' : 'primary'} />
          <Box sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <Typography variant="caption" sx={{ fontSize: 10 }}>
              {task.progress || '0%'}
            </Typography>
          </Box>
        </Box>
      ),
    },
    { key: 'duration', render: (task) => <DurationChip seconds={task.finish_time && task.submit_time ? task.finish_time - task.submit_time : 0} /> },
    { key: 'channel', adminOnly: true, render: (task) => <ChannelChip channelId={task.channel_id} testId={`task-channel-${task.id}`} /> },
    { key: 'platform', render: (task) => <Chip size="small" color="primary" variant="outlined" label={task.platform === 'suno' ? 'Suno' : task.platform || t('tasks:unknown')} /> },
    { key: 'type', render: (task) => <Chip size="small" label={t(`tasks:taskActions.${KNOWN_ACTIONS.includes(task.action) ? task.action : 'UNKNOWN'}`)} /> },
    {
      key: 'taskId',
      sx: NO_WRAP,
      render: (task) => (
        <Link component="button" variant="body2" onClick={() => setText({ title: task.task_id, text: JSON.stringify(task, null, 2) })} data-testid={`task-id-${task.id}`}>
          {task.task_id}
        </Link>
      ),
    },
    {
      key: 'status',
      render: (task) => {
        // An empty status means the task is still being submitted.
        const state = task.status === '' ? 'SUBMITTING' : task.status in STATUS_COLORS ? task.status : 'UNKNOWN';
        return <Chip size="small" color={STATUS_COLORS[state]} label={t(`tasks:taskStatuses.${state}`)} data-testid={`task-status-${task.id}`} />;
      },
    },
    { key: 'failReason', render: (task) => <LongTextCell text={task.fail_reason} onOpen={(value) => setText({ title: t('tasks:columns.failReason'), text: value })} /> },
  ];

  return (
    <PageContainer maxWidth="xl">
      <PageHeader title={t('tasks:taskTitle')} subtitle={t('tasks:taskSubtitle')} />
      <TaskFilters filters={draft} admin={admin} unitMs={1000} onChange={setDraft} onQuery={() => applyQuery({ ...draft })} />
      <TaskTable columns={columns} rows={rows} loading={loading} admin={admin} pagination={pagination} minWidth={1000} testId="tasks-table" rowTestId="task-row" />
      <TextDialog title={text?.title ?? ''} text={text?.text ?? null} onClose={() => setText(null)} />
    </PageContainer>
  );
}
