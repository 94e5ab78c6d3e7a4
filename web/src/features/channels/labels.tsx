import { Chip, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../lib/time';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED, type Channel } from './api';

interface StatusReason {
  status_reason?: string;
  status_time?: number;
}

function parseStatusReason(otherInfo: string): StatusReason {
  try {
    const parsed: unknown = JSON.parse(otherInfo || '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as StatusReason) : {};
  } catch {
    return {};
  }
}

/** Enabled, manually disabled, or auto-disabled with the reason and time in a tooltip. */
export function ChannelStatusChip({ status, otherInfo, testId }: { status: number; otherInfo: string; testId?: string }) {
  const { t } = useTranslation();
  if (status === CHANNEL_ENABLED) return <Chip size="small" color="success" variant="outlined" label={t('channels:status.enabled')} data-testid={testId} />;
  if (status === CHANNEL_MANUALLY_DISABLED) return <Chip size="small" variant="outlined" label={t('channels:status.manuallyDisabled')} data-testid={testId} />;
  if (status === CHANNEL_AUTO_DISABLED) {
    const { status_reason, status_time } = parseStatusReason(otherInfo);
    const title = t('channels:status.autoDisabledTooltip', {
      reason: status_reason || t('channels:status.noReason'),
      time: status_time ? formatTimestamp(status_time) : '-',
    });
    return (
      <Tooltip title={title}>
        <Chip size="small" color="warning" variant="outlined" label={t('channels:status.autoDisabled')} data-testid={testId} />
      </Tooltip>
    );
  }
  return <Chip size="small" label={t('channels:status.unknown')} data-testid={testId} />;
}

/** Colour band of a response time in milliseconds: untested, ≤1 s, ≤3 s, ≤5 s, slower. */
export function responseTimeBand(ms: number): { label: 'untested' | 'fast' | 'ok' | 'slow' | 'verySlow'; color: string } {
  if (ms <= 0) return { label: 'untested', color: '#94a3b8' };
  if (ms <= 1000) return { label: 'fast', color: '#16a34a' };
  if (ms <= 3000) return { label: 'ok', color: '#65a30d' };
  if (ms <= 5000) return { label: 'slow', color: '#ca8a04' };
  return { label: 'verySlow', color: '#dc2626' };
}

/** The last measured response time, in seconds, coloured by band; clicking tests the channel. */
export function ResponseTimeChip({ ms, testing, onTest, testId }: { ms: number; testing?: boolean; onTest: () => void; testId?: string }) {
  const { t } = useTranslation();
  const band = responseTimeBand(ms);
  const label = testing ? t('channels:test.testing') : ms > 0 ? t('channels:test.seconds', { value: (ms / 1000).toFixed(2) }) : t('channels:test.untested');
  return (
    <Tooltip title={t('channels:test.clickToTest')}>
      <Chip
        size="small"
        clickable
        disabled={testing}
        onClick={onTest}
        label={label}
        data-testid={testId}
        data-band={band.label}
        sx={{ color: band.color, borderColor: band.color, fontVariantNumeric: 'tabular-nums' }}
        variant="outlined"
      />
    </Tooltip>
  );
}

const BREAKER_COLORS = { closed: 'default', half_open: 'warning', open: 'error' } as const;

/**
 * The weight the relay draws with now (the static weight scaled by measured latency and error
 * rate), coloured by the circuit breaker; the tooltip gives the figures behind it.
 */
export function ChannelHealthChip({ channel, testId }: { channel: Channel; testId?: string }) {
  const { t } = useTranslation();
  const title = t('channels:health.tooltip', {
    breaker: t(`channels:health.breaker.${channel.breaker_state}`),
    weight: channel.weight,
    effective: channel.effective_weight,
    latency: channel.health_latency_ms > 0 ? t('channels:health.latency', { value: channel.health_latency_ms }) : t('channels:health.noCalls'),
    errors: (channel.health_error_rate * 100).toFixed(1),
  });
  const label = channel.breaker_state === 'closed' ? String(channel.effective_weight) : `${channel.effective_weight} · ${t(`channels:health.breaker.${channel.breaker_state}`)}`;
  return (
    <Tooltip title={title}>
      <Chip size="small" variant="outlined" color={BREAKER_COLORS[channel.breaker_state]} label={label} data-testid={testId} data-breaker={channel.breaker_state} sx={{ fontVariantNumeric: 'tabular-nums' }} />
    </Tooltip>
  );
}
