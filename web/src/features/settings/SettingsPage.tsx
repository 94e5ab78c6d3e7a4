import { useState, type ComponentType } from 'react';
import { Alert, Box, CircularProgress, Link, Stack, Tab, Tabs } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { isAdmin, ROLE_ROOT, useSessionUser } from '../../lib/session';
import ModelSettings from './models/ModelSettings';
import OperationSettings from './operation/OperationSettings';
import { OptionsProvider, useOptions } from './OptionsProvider';
import OtherSettings from './other/OtherSettings';
import RateLimitSettings from './ratelimit/RateLimitSettings';
import SystemSettings from './system/SystemSettings';

interface SettingsTab {
  /** The value of ?tab= */
  key: string;
  component: ComponentType;
  rootOnly?: boolean;
}

/** The spec's tabs in order; the pricing area is the last part of the operation tab. */
const TABS: SettingsTab[] = [
  { key: 'operation', component: OperationSettings },
  { key: 'ratelimit', component: RateLimitSettings },
  { key: 'models', component: ModelSettings },
  { key: 'system', component: SystemSettings, rootOnly: true },
  { key: 'other', component: OtherSettings },
];

function TabPanel({ tab }: { tab: SettingsTab }) {
  const { loaded } = useOptions();
  if (!loaded) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label="loading" />
      </Box>
    );
  }
  const Component = tab.component;
  return <Component />;
}

/** /setting: the administrator's settings, one tab per area, the active tab kept in ?tab=. */
export function SettingsPage() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const [params, setParams] = useSearchParams();
  const tabs = TABS.filter((tab) => !tab.rootOnly || (user?.role ?? 0) >= ROLE_ROOT);
  const active = tabs.find((tab) => tab.key === params.get('tab')) ?? tabs[0];
  // A tab is built when first opened and then kept (hidden), so unsaved edits survive a look at another tab.
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  if (!opened.has(active.key)) setOpened(new Set([...opened, active.key]));

  // Any signed-in user may open /setting (failed OAuth binds land here); only administrators get its tabs.
  if (!user || !isAdmin(user)) {
    return (
      <PageContainer>
        <PageHeader title={t('settings:title')} />
        <Alert severity="info" data-testid="settings-not-admin">
          {t('settings:notAdmin')}{' '}
          <Link component={RouterLink} to="/personal">
            {t('settings:toPersonal')}
          </Link>
        </Alert>
      </PageContainer>
    );
  }

  return (
    <PageContainer>
      <PageHeader title={t('settings:title')} />
      <OptionsProvider>
        <Stack spacing={3}>
          <Tabs
            value={active.key}
            onChange={(_, key: string) => setParams({ tab: key })}
            variant="scrollable"
            scrollButtons="auto"
            allowScrollButtonsMobile
            sx={{ borderBottom: 1, borderColor: 'divider' }}
          >
            {tabs.map((tab) => (
              <Tab key={tab.key} value={tab.key} label={t(`settings:tabs.${tab.key}`)} data-testid={`settings-tab-${tab.key}`} />
            ))}
          </Tabs>
          {tabs
            .filter((tab) => tab.key === active.key || opened.has(tab.key))
            .map((tab) => (
              <Box key={tab.key} hidden={tab.key !== active.key}>
                <TabPanel tab={tab} />
              </Box>
            ))}
        </Stack>
      </OptionsProvider>
    </PageContainer>
  );
}
