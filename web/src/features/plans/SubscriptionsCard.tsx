import { Box, Card, CardContent, CardHeader, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { renderQuota } from '../../lib/quota';
import { formatTimestamp } from '../../lib/time';
import { usageColor, usedPercent } from '../budget/budget';
import type { Subscription } from './api';

const STATUS_COLORS = { active: 'success', expired: 'default', cancelled: 'default' } as const;

/** One labelled bar: what is used of an allowance, and when it resets (or that it does not). */
function UseBar({ label, used, quota, note, testId }: { label: string; used: number; quota: number; note: string; testId: string }) {
  const percent = usedPercent({ period: 'day', quota, used, resets_at: null });
  return (
    <Box data-testid={testId}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {renderQuota(used)} / {renderQuota(quota)}
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={usageColor(percent)}
        sx={{ height: 8, borderRadius: 4, my: 0.5 }}
        aria-label={`${label} ${percent}%`}
      />
      <Typography variant="caption" color="text.secondary">
        {note}
      </Typography>
    </Box>
  );
}

/** One subscription: its plan, status and period, and while it is active a bar per window (and for the total). */
export function SubscriptionSummary({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2 }} data-testid={`subscription-${subscription.id}`}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
          {subscription.plan_name} <Typography component="span" variant="caption" color="text.secondary">#{subscription.id}</Typography>
        </Typography>
        <Chip size="small" variant="outlined" color={STATUS_COLORS[subscription.status]} label={t(`plans:subscriptionStatus.${subscription.status}`)} />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('plans:wallet.period', { start: formatTimestamp(subscription.starts_at), end: formatTimestamp(subscription.expires_at) })}
      </Typography>
      {subscription.status === 'active' && (
        <Stack spacing={1.5}>
          {subscription.total_quota > 0 && (
            <UseBar label={t('plans:wallet.total')} used={subscription.used} quota={subscription.total_quota} note={t('plans:wallet.noReset')} testId={`subscription-${subscription.id}-total`} />
          )}
          {subscription.budget_usage.map((window) => (
            <UseBar
              key={window.period}
              label={t(`budget:periods.${window.period}`)}
              used={window.used}
              quota={window.quota}
              note={window.resets_at === null ? t('budget:notOpen') : t('budget:resetsAt', { time: formatTimestamp(window.resets_at) })}
              testId={`subscription-${subscription.id}-${window.period}`}
            />
          ))}
          {subscription.total_quota === 0 && subscription.budget_usage.length === 0 && (
            <Typography variant="body2">{t('plans:wallet.usedOnly', { used: renderQuota(subscription.used) })}</Typography>
          )}
        </Stack>
      )}
    </Box>
  );
}

/** The user's subscriptions on the wallet page, each as a SubscriptionSummary. */
export function SubscriptionsCard({ subscriptions }: { subscriptions: Subscription[] }) {
  const { t } = useTranslation();
  if (subscriptions.length === 0) return null;
  return (
    <Card data-testid="subscriptions">
      <CardHeader title={t('plans:wallet.subscriptionsTitle')} subheader={t('plans:wallet.subscriptionsSubtitle')} />
      <CardContent>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          {subscriptions.map((subscription) => (
            <SubscriptionSummary key={subscription.id} subscription={subscription} />
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}
