import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatTimestamp } from '../../lib/time';
import { toast } from '../../lib/toast';
import { CHANNEL_ENABLED, channelsApi, type ChannelKeyList, type ChannelKeyRow } from './api';
import { ChannelStatusChip } from './labels';

const MONOSPACE = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 };

/**
 * The keys of a multi-key channel in the editor: masked, with status, last error and uses, and
 * per key a test, enable or disable, and delete. Hidden while the channel holds one key;
 * `onKeyCount` tells the editor how many it holds.
 */
export function ChannelKeysPanel({ channelId, onKeyCount }: { channelId: number; onKeyCount: (count: number) => void }) {
  const { t } = useTranslation();
  const [list, setList] = useState<ChannelKeyList | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [pendingDelete, setPendingDelete] = useState<ChannelKeyRow | null>(null);

  const load = useCallback(async () => {
    const result = await channelsApi.keys(channelId);
    if (result.ok) setList(result.data);
  }, [channelId]);

  useEffect(() => {
    void load();
  }, [load]);

  const keyCount = list?.keys.length ?? 0;
  useEffect(() => {
    if (keyCount > 0) onKeyCount(keyCount);
  }, [keyCount, onKeyCount]);

  async function run(index: number, action: () => Promise<{ ok: boolean; data?: ChannelKeyList }>) {
    setBusy(index);
    const result = await action();
    setBusy(null);
    if (result.ok && result.data) setList(result.data);
  }

  async function test(index: number) {
    setBusy(index);
    const result = await channelsApi.testKey(channelId, index);
    setBusy(null);
    if (result.success) toast.success(t('channels:keys.testPassed', { index, time: result.time.toFixed(2) }));
    else toast.error(t('channels:keys.testFailed', { index, message: result.message }));
    await load();
  }

  if (!list || list.keys.length < 2) return null;
  return (
    <Stack spacing={1} data-testid="channel-keys">
      <Typography variant="body2" color="text.secondary">
        {t('channels:keys.summary', { enabled: list.keys.filter((key) => key.status === CHANNEL_ENABLED).length, total: list.keys.length })}
      </Typography>
      {list.keys.map((key) => (
        <Box key={key.index} data-testid={`channel-key-${key.index}`} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexGrow: 1, minWidth: 0 }}>
              <Typography variant="body2" color="text.secondary">
                #{key.index}
              </Typography>
              <Typography variant="body2" sx={{ ...MONOSPACE, overflowWrap: 'anywhere' }} data-testid={`channel-key-${key.index}-masked`}>
                {key.masked_key}
              </Typography>
              <ChannelStatusChip status={key.status} otherInfo={JSON.stringify({ status_reason: key.status_reason, status_time: key.status_time })} testId={`channel-key-${key.index}-status`} />
            </Stack>
            <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
              <Button size="small" disabled={busy !== null} onClick={() => void test(key.index)} data-testid={`channel-key-${key.index}-test`}>
                {t('channels:keys.test')}
              </Button>
              {key.status === CHANNEL_ENABLED ? (
                <Button size="small" disabled={busy !== null} onClick={() => void run(key.index, () => channelsApi.disableKey(channelId, key.index))} data-testid={`channel-key-${key.index}-disable`}>
                  {t('channels:keys.disable')}
                </Button>
              ) : (
                <Button size="small" disabled={busy !== null} onClick={() => void run(key.index, () => channelsApi.enableKey(channelId, key.index))} data-testid={`channel-key-${key.index}-enable`}>
                  {t('channels:keys.enable')}
                </Button>
              )}
              <Button size="small" color="error" disabled={busy !== null} onClick={() => setPendingDelete(key)} data-testid={`channel-key-${key.index}-delete`}>
                {t('channels:keys.delete')}
              </Button>
            </Stack>
          </Stack>
          <Typography variant="caption" color="text.secondary" component="div" data-testid={`channel-key-${key.index}-usage`}>
            {t('channels:keys.uses', { count: key.use_count })}
            {key.last_error && ` · ${t('channels:keys.lastError', { message: key.last_error, time: formatTimestamp(key.last_error_time) })}`}
          </Typography>
        </Box>
      ))}
      <ConfirmDialog
        open={pendingDelete !== null}
        danger
        title={t('channels:keys.deleteTitle')}
        message={t('channels:keys.deleteMessage', { index: pendingDelete?.index ?? 0, key: pendingDelete?.masked_key ?? '' })}
        confirmLabel={t('channels:keys.delete')}
        onClose={() => setPendingDelete(null)}
        onConfirm={() => {
          const key = pendingDelete;
          setPendingDelete(null);
          if (key) void run(key.index, () => channelsApi.deleteKey(channelId, key.index));
        }}
      />
    </Stack>
  );
}
