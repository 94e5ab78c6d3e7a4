import { Box, LinearProgress, Stack, Tooltip, Typography } from '@mui/material';
import type { BudgetUsage } from '@shared/billing/budget.wire';
import { useTranslation } from 'react-i18next';
import { renderQuota } from '../../lib/quota';
import { formatTimestamp } from '../../lib/time';
import { usageColor, usedPercent } from './budget';

/** One compact bar per budget window: the period, the share used, and (on hover) the amounts and the reset. */
export function BudgetUsageBars({ usage, testId }: { usage: BudgetUsage[]; testId?: string }) {
  const { t } = useTranslation();
  if (usage.length === 0) return null;
  return (
    <Stack spacing={0.25} sx={{ minWidth: 96 }} data-testid={testId}>
      {usage.map((window) => {
        const percent = usedPercent(window);
        const resets = window.resets_at === null ? t('budget:notOpen') : t('budget:resetsAt', { time: formatTimestamp(window.resets_at) });
        return (
          <Tooltip key={window.period} title={`${t(`budget:periods.${window.period}`)}: ${renderQuota(window.used)} / ${renderQuota(window.quota)} · ${resets}`}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
              <Typography variant="caption" sx={{ width: 24, flexShrink: 0 }} color="text.secondary">
                {t(`budget:short.${window.period}`)}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={percent}
                color={usageColor(percent)}
                sx={{ flexGrow: 1, height: 6, borderRadius: 3 }}
                aria-label={`${t(`budget:periods.${window.period}`)} ${percent}%`}
              />
            </Box>
          </Tooltip>
        );
      })}
    </Stack>
  );
}
