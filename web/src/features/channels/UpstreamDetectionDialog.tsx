import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../lib/time';
import { channelsApi, type Channel, type UpstreamGroup } from './api';

/** The upstream test of one channel: which groups, through which client APIs, reach its upstream, and when. */
export function UpstreamDetectionDialog({ channel, onClose }: { channel: Channel | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [groups, setGroups] = useState<UpstreamGroup[] | null>(null);

  useEffect(() => {
    setGroups(null);
    if (!channel) return;
    let current = true;
    void channelsApi.testUpstream(channel.id).then((result) => current && setGroups(result.ok ? result.data : []));
    return () => {
      current = false;
    };
  }, [channel]);

  const seen = (seconds: number) => (seconds > 0 ? formatTimestamp(seconds) : t('channels:upstream.never'));

  return (
    <Dialog open={!!channel} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{t('channels:upstream.title', { name: channel?.name ?? '' })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('channels:upstream.hint')}</DialogContentText>
        {groups === null ? (
          <LinearProgress />
        ) : groups.length === 0 ? (
          <Alert severity="info">{t('channels:upstream.empty')}</Alert>
        ) : (
          <TableContainer>
            <Table size="small" data-testid="upstream-groups">
              <TableHead>
                <TableRow>
                  <TableCell>{t('channels:upstream.group')}</TableCell>
                  <TableCell>{t('channels:upstream.clientTypes')}</TableCell>
                  <TableCell>{t('channels:upstream.firstSeen')}</TableCell>
                  <TableCell>{t('channels:upstream.lastSeen')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {groups.map((group) => (
                  <TableRow key={group.group} data-testid={`upstream-group-${group.group}`}>
                    <TableCell>{group.group}</TableCell>
                    <TableCell>
                      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                        {group.client_types.map((type) => (
                          <Tooltip key={type.client_type} title={t('channels:upstream.clientTypeTooltip', { first: seen(type.first_seen), last: seen(type.last_seen) })}>
                            <Chip size="small" variant="outlined" label={t('channels:upstream.clientTypeCount', { type: t(`channels:upstream.clientType.${type.client_type}`, { defaultValue: type.client_type }), count: type.count })} />
                          </Tooltip>
                        ))}
                        {group.client_types.length === 0 && <Chip size="small" label={t('channels:upstream.noTraffic')} />}
                      </Stack>
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{seen(group.first_seen)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{seen(group.last_seen)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
