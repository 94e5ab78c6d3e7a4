import { useCallback, useEffect, useState } from 'react';
import { Avatar, Box, Card, CardContent, Chip, CircularProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { renderNumber, renderQuota } from '../../lib/quota';
import { ROLE_ADMIN, ROLE_ROOT } from '../../lib/session';
import { personalApi, type SelfUser } from './api';
import { SessionsCard } from '../identity/SessionsCard';
import { TwoFactorCard } from '../identity/TwoFactorCard';
import { PasskeysCard } from '../passkeys/PasskeysCard';
import { BindingsCard } from './BindingsCard';
import { InvitationCard } from './InvitationCard';
import { ModelsCard } from './ModelsCard';
import { SecurityCard } from './SecurityCard';
import { SettingsTabs } from './SettingsTabs';
import { StatTile } from './StatTile';

function roleLabel(role: number): string {
  if (role >= ROLE_ROOT) return 'users:role.root';
  if (role >= ROLE_ADMIN) return 'users:role.admin';
  return 'users:role.user';
}

/** Personal settings: balance, models, invitations, security and notification settings. */
export function PersonalPage() {
  const { t } = useTranslation();
  const [user, setUser] = useState<SelfUser | null>(null);

  const load = useCallback(async () => {
    const result = await personalApi.self();
    if (result.ok) setUser(result.data);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  if (!user) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 10 }}>
        <CircularProgress />
      </Box>
    );
  }

  return (
    <PageContainer>
      <PageHeader title={t('personal:title')} subtitle={t('personal:subtitle')} />
      <Stack spacing={2.5}>
        <Card>
          <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: { md: 'center' } }}>
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minWidth: 240 }}>
                <Avatar sx={{ width: 56, height: 56, bgcolor: 'primary.main', fontSize: 24 }}>
                  {(user.display_name || user.username).slice(0, 1).toUpperCase()}
                </Avatar>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="h6" noWrap>
                    {user.display_name || user.username}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" noWrap>
                    @{user.username} · ID {user.id}
                  </Typography>
                  <Stack direction="row" spacing={0.75} sx={{ mt: 0.75 }}>
                    <Chip size="small" color="primary" variant="outlined" label={t(roleLabel(user.role))} />
                    <Chip size="small" variant="outlined" label={t('personal:groupLabel', { group: user.group })} />
                  </Stack>
                </Box>
              </Stack>
              <Box sx={{ flex: 1, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
                <StatTile label={t('personal:balance.quota')} value={renderQuota(user.quota)} testId="balance-quota" />
                <StatTile label={t('personal:balance.used')} value={renderQuota(user.used_quota)} />
                <StatTile label={t('personal:balance.requests')} value={renderNumber(user.request_count)} />
              </Box>
            </Stack>
          </CardContent>
        </Card>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <InvitationCard user={user} onChanged={() => void load()} />
          <SecurityCard user={user} />
        </Box>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <TwoFactorCard />
          <SessionsCard />
          <PasskeysCard />
        </Box>
        <BindingsCard user={user} onChanged={() => void load()} />
        <ModelsCard />
        <SettingsTabs user={user} onSaved={() => void load()} />
      </Stack>
    </PageContainer>
  );
}
