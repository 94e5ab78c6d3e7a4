import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Card, CardContent, CardHeader, Chip, Divider, Stack, Typography } from '@mui/material';
import ComputerIcon from '@mui/icons-material/Computer';
import SmartphoneIcon from '@mui/icons-material/Smartphone';
import TabletIcon from '@mui/icons-material/TabletMac';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../lib/time';
import { toast } from '../../lib/toast';
import { identityApi, type SessionView } from './api';

const DEVICE_ICONS = { mobile: SmartphoneIcon, tablet: TabletIcon, desktop: ComputerIcon } as const;

/** The account's signed-in browsers: device, address, last seen; sign out one or all others. */
export function SessionsCard() {
  const { t } = useTranslation();
  const [sessions, setSessions] = useState<SessionView[]>([]);

  const load = useCallback(async () => {
    const result = await identityApi.sessions();
    if (result.ok) setSessions(result.data);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function revoke(id: string) {
    const result = await identityApi.revokeSession(id);
    if (result.ok) toast.success(result.message);
    await load();
  }

  async function revokeOthers() {
    const result = await identityApi.revokeOtherSessions();
    if (result.ok) toast.success(result.message);
    await load();
  }

  return (
    <Card data-testid="sessions-card">
      <CardHeader
        title={t('identity:sessions.title')}
        action={
          sessions.length > 1 && (
            <Button color="error" onClick={() => void revokeOthers()} data-testid="revoke-other-sessions">
              {t('identity:sessions.revokeOthers')}
            </Button>
          )
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {sessions.map((session, index) => {
          const DeviceIcon = DEVICE_ICONS[session.device_type as keyof typeof DEVICE_ICONS] ?? ComputerIcon;
          return (
            <Box key={session.id} data-testid="session-row">
              {index > 0 && <Divider />}
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', py: 1.5 }}>
                <DeviceIcon color="action" />
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Typography sx={{ fontWeight: 600 }} noWrap>
                      {[session.browser, session.os].filter(Boolean).join(' · ') || t('identity:sessions.unknownDevice')}
                    </Typography>
                    {session.current && <Chip size="small" color="primary" label={t('identity:sessions.current')} data-testid="current-session" />}
                  </Stack>
                  <Typography variant="body2" color="text.secondary" noWrap>
                    {t('identity:sessions.details', { ip: session.ip || '-', lastSeen: formatTimestamp(session.last_seen || session.created_time) })}
                  </Typography>
                </Box>
                {!session.current && (
                  <Button size="small" onClick={() => void revoke(session.id)} data-testid="revoke-session">
                    {t('identity:sessions.revoke')}
                  </Button>
                )}
              </Stack>
            </Box>
          );
        })}
      </CardContent>
    </Card>
  );
}
