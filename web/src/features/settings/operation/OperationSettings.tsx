import { Stack } from '@mui/material';
import PricingSettings from '../pricing/PricingSettings';
import { ChatsSection } from './ChatsSection';
import { DashboardSection } from './DashboardSection';
import { DrawingSection } from './DrawingSection';
import { GeneralSection } from './GeneralSection';
import { GroupRatioSection } from './GroupRatioSection';
import { MonitoringSection } from './MonitoringSection';
import { ResponseCacheSection } from './ResponseCacheSection';
import { SensitiveAndLogsSection } from './SensitiveAndLogsSection';

/** The operation tab: the spec's sections in order, the pricing area last. */
export default function OperationSettings() {
  return (
    <Stack spacing={3}>
      <GeneralSection />
      <DrawingSection />
      <MonitoringSection />
      <ResponseCacheSection />
      <SensitiveAndLogsSection />
      <DashboardSection />
      <ChatsSection />
      <GroupRatioSection />
      <PricingSettings />
    </Stack>
  );
}
