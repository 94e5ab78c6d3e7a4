import { useCallback, useState } from 'react';
import { Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, LinearProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { usePagedRows } from '../../components/table/usePagedRows';
import { isAdmin, useSessionUser } from '../../lib/session';
import { StorageKey } from '../../lib/storage';
import { formatTimestamp } from '../../lib/time';
import { useStatus } from '../status/StatusProvider';
import { progressValue, tasksApi, type DrawingTask, type TaskLogFilters } from './api';
import { TaskFilters } from './TaskFilters';
import { ChannelChip, DurationChip, NO_WRAP, TaskTable, type ChipColor, type TaskColumn } from './TaskTable';
import { LongTextCell, TextDialog } from './TextDialog';

const KNOWN_ACTIONS = ['IMAGINE', 'UPSCALE', 'VARIATION', 'HIGH_VARIATION', 'LOW_VARIATION', 'PAN', 'DESCRIBE', 'BLEND', 'UPLOAD', 'SHORTEN', 'REROLL', 'INPAINT', 'ZOOM', 'CUSTOM_ZOOM', 'MODAL', 'SWAP_FACE'];
const KNOWN_STATUSES = ['NOT_START', 'SUBMITTED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'MODAL'];
const KNOWN_CODES = [1, 21, 22, 0];
const STATUS_COLORS: Record<string, ChipColor> = { SUCCESS: 'success', NOT_START: 'default', SUBMITTED: 'warning', IN_PROGRESS: 'info', FAILURE: 'error', MODAL: 'secondary' };
const CODE_COLORS: Record<number, ChipColor> = { 1: 'success', 21: 'info', 22: 'warning', 0: 'error' };
const ACTION_COLORS: Record<string, ChipColor> = { IMAGINE: 'primary', UPSCALE: 'secondary', VARIATION: 'info', DESCRIBE: 'warning', BLEND: 'success' };

/** Default window: 30 days ago to one hour ahead (milliseconds, like the drawings' submit time). */
function defaultFilters(): TaskLogFilters {
  return { channel_id: '', task_id: '', start_timestamp: Date.now() - 30 * 24 * 3600 * 1000, end_timestamp: Date.now() + 3600 * 1000 };
}

/** Admins see a banner while drawing callbacks are off, unless the browser flag says they are on. */
function callbackBannerShown(admin: boolean, notifyEnabled: boolean): boolean {
  return admin && !notifyEnabled && localStorage.getItem(StorageKey.mjNotifyEnabled) !== 'true';
}

/** The drawing (Midjourney) log: every task with its result image, prompt and failure reason. */
export function DrawingLogPage() {
  const { t } = useTranslation();
  const admin = isAdmin(useSessionUser());
  const { status } = useStatus();
  const [draft, setDraft] = useState<TaskLogFilters>(defaultFilters);
  const fetchDrawings = useCallback((filters: TaskLogFilters, page: number, pageSize: number) => tasksApi.drawings(filters, admin, page, pageSize), [admin]);
  const { rows, loading, applyQuery, pagination } = usePagedRows(fetchDrawings, draft);
  const [text, setText] = useState<{ title: string; text: string } | null>(null);
  const [image, setImage] = useState<string | null>(null);

  const columns: TaskColumn<DrawingTask>[] = [
    { key: 'submitTime', sx: NO_WRAP, render: (task) => formatTimestamp(Math.floor(task.submit_time / 1000)) },
    {
      key: 'duration',
      render: (task) => <DurationChip seconds={task.finish_time && task.submit_time ? Math.round((task.finish_time - task.submit_time) / 1000) : 0} testId={`drawing-duration-${task.id}`} />,
    },
    { key: 'channel', adminOnly: true, render: (task) => <ChannelChip channelId={task.channel_id} testId={`drawing-channel-${task.id}`} /> },
    {
      key: 'type',
      render: (task) => {
        const action = KNOWN_ACTIONS.includes(task.action) ? task.action : 'UNKNOWN';
        return <Chip size="small" color={ACTION_COLORS[action] ?? 'default'} label={t(`tasks:drawingActions.${action}`)} />;
      },
    },
    { key: 'taskId', sx: NO_WRAP, render: (task) => task.mj_id },
    {
      key: 'code',
      render: (task) => {
        const code = KNOWN_CODES.includes(task.code) ? task.code : 0;
        return <Chip size="small" variant="outlined" color={CODE_COLORS[code]} label={t(`tasks:codes.${code}`)} />;
      },
    },
    {
      key: 'status',
      render: (task) => {
        const state = KNOWN_STATUSES.includes(task.status) ? task.status : 'UNKNOWN';
        return <Chip size="small" color={STATUS_COLORS[state] ?? 'default'} label={t(`tasks:drawingStatuses.${state}`)} data-testid={`drawing-status-${task.id}`} />;
      },
    },
    {
      key: 'progress',
      sx: { minWidth: 120 },
      render: (task) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <LinearProgress variant="determinate" value={progressValue(task.progress)} color={task.status === 'FAILURE' ? 'warning' : 'primary'} sx={{ flex: 1 }} />
          <Typography variant="caption">{task.progress || '0%'}</Typography>
        </Box>
      ),
    },
    {
      key: 'image',
      render: (task) =>
        task.image_url ? (
          <Button size="small" onClick={() => setImage(task.image_url)} data-testid={`drawing-image-${task.id}`}>
            {t('tasks:viewImage')}
          </Button>
        ) : (
          t('tasks:noImage')
        ),
    },
    { key: 'prompt', render: (task) => <LongTextCell text={task.prompt} onOpen={(value) => setText({ title: t('tasks:columns.prompt'), text: value })} testId={`drawing-prompt-${task.id}`} /> },
    { key: 'promptEn', render: (task) => <LongTextCell text={task.prompt_en} onOpen={(value) => setText({ title: t('tasks:columns.promptEn'), text: value })} /> },
    { key: 'failReason', render: (task) => <LongTextCell text={task.fail_reason} onOpen={(value) => setText({ title: t('tasks:columns.failReason'), text: value })} /> },
  ];

  return (
    <PageContainer maxWidth="xl">
      <PageHeader title={t('tasks:drawingTitle')} subtitle={t('tasks:drawingSubtitle')} />
      {callbackBannerShown(admin, !!status.mj_notify_enabled) && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="drawing-callback-banner">
          {t('tasks:callbackBanner')}
        </Alert>
      )}
      <TaskFilters filters={draft} admin={admin} unitMs={1} onChange={setDraft} onQuery={() => applyQuery({ ...draft })} />
      <TaskTable columns={columns} rows={rows} loading={loading} admin={admin} pagination={pagination} minWidth={1200} testId="drawings-table" rowTestId="drawing-row" />
      <TextDialog title={text?.title ?? ''} text={text?.text ?? null} onClose={() => setText(null)} />
      <Dialog open={image !== null} onClose={() => setImage(null)} maxWidth="md">
        <DialogContent>{image && <img src={image} alt={t('tasks:viewImage')} style={{ maxWidth: '100%' }} data-testid="drawing-image-viewer" />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setImage(null)}>{t('common:actions.close')}</Button>
        </DialogActions>
      </Dialog>
    </PageContainer>
  );
}
