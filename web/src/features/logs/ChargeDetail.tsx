import { Box, Chip, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { renderQuota } from '../../lib/quota';
import { isBillable, type LogEntry, type LogOther } from './api';
import { logRowText } from './logText';

/** Dollars at one quota unit per 1/500000 dollar of (tokens × ratios); see the billing formula on the server. */
const TOKENS_PER_DOLLAR_AT_RATIO_1 = 500000;

const trim = (value: number, digits = 6) => String(Number(value.toFixed(digits)));

export interface ChargeExplanation {
  /** The formula with the numbers filled in. */
  formula: string;
  /** The dollar cost the formula gives. */
  dollars: number;
}

/** Rebuilds the charge of a consumption entry from the ratios the relay recorded. */
export function explainCharge(log: Pick<LogEntry, 'prompt_tokens' | 'completion_tokens'>, other: LogOther): ChargeExplanation | null {
  const groupRatio = other.group_ratio ?? 1;
  if (other.model_price !== undefined && other.model_price >= 0) {
    const dollars = other.model_price * groupRatio;
    return { formula: `$${trim(other.model_price)} × ${trim(groupRatio)} = $${trim(dollars)}`, dollars };
  }
  if (other.model_ratio === undefined) return null;
  const completionRatio = other.completion_ratio ?? 1;
  const cached = Math.min(other.cache_tokens ?? 0, log.prompt_tokens);
  const cacheRatio = other.cache_ratio ?? 1;
  // Prompt tokens written to the provider's cache (Claude) are billed at their own ratio.
  const written = Math.min(other.cache_creation_tokens ?? 0, log.prompt_tokens - cached);
  const writeRatio = other.cache_creation_ratio ?? 1;
  const weighted = log.prompt_tokens - cached - written + cached * cacheRatio + written * writeRatio + log.completion_tokens * completionRatio;
  const dollars = (groupRatio * other.model_ratio * weighted) / TOKENS_PER_DOLLAR_AT_RATIO_1;
  let tokens = `${log.prompt_tokens}`;
  if (cached > 0) tokens += ` − ${cached} + ${cached} × ${trim(cacheRatio)}`;
  if (written > 0) tokens += ` − ${written} + ${written} × ${trim(writeRatio)}`;
  tokens += ` + ${log.completion_tokens} × ${trim(completionRatio)}`;
  return { formula: `${trim(groupRatio)} × ${trim(other.model_ratio)} × (${tokens}) / ${TOKENS_PER_DOLLAR_AT_RATIO_1} = $${trim(dollars)}`, dollars };
}

function Fact({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <Box sx={{ minWidth: 120 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

/** The expanded part of a log row: the ratios, cache use, mapping, retries, and the charge formula. */
export function ChargeDetail({ log, other, admin }: { log: LogEntry; other: LogOther; admin: boolean }) {
  const { t, i18n } = useTranslation();
  const text = logRowText(log, other, i18n);
  // A top-up, admin or system entry moved the balance without a charge: its amount and its text are the whole story.
  if (!isBillable(log)) {
    return (
      <Stack spacing={1.5} sx={{ py: 1.5, px: 1 }} data-testid={`log-detail-${log.id}`}>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2.5 }}>
          <Fact label={t('logs:detail.amount')} value={`${renderQuota(log.quota)} (${log.quota})`} testId={`log-amount-${log.id}`} />
        </Stack>
        {text && (
          <Typography variant="body2" color="text.secondary" data-testid={`log-detail-text-${log.id}`}>
            {text}
          </Typography>
        )}
      </Stack>
    );
  }
  const explanation = explainCharge(log, other);
  const perCall = other.model_price !== undefined && other.model_price >= 0;
  const retries = other.admin_info?.use_channel ?? [];
  return (
    <Stack spacing={1.5} sx={{ py: 1.5, px: 1 }} data-testid={`log-detail-${log.id}`}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2.5 }}>
        <Fact label={t('logs:detail.billing')} value={perCall ? t('logs:detail.perCall') : t('logs:detail.perToken')} />
        {perCall ? (
          <Fact label={t('logs:detail.modelPrice')} value={`$${trim(other.model_price ?? 0)}`} />
        ) : (
          <>
            <Fact label={t('logs:detail.modelRatio')} value={trim(other.model_ratio ?? 0)} testId={`log-model-ratio-${log.id}`} />
            <Fact label={t('logs:detail.completionRatio')} value={trim(other.completion_ratio ?? 1)} />
          </>
        )}
        <Fact label={other.user_group_ratio !== undefined && other.user_group_ratio >= 0 ? t('logs:detail.userGroupRatio') : t('logs:detail.groupRatio')} value={trim(other.group_ratio ?? 1)} />
        {!perCall && <Fact label={t('logs:detail.promptTokens')} value={log.prompt_tokens} />}
        {!perCall && <Fact label={t('logs:detail.completionTokens')} value={log.completion_tokens} />}
        {(other.cache_tokens ?? 0) > 0 && <Fact label={t('logs:detail.cacheTokens')} value={`${other.cache_tokens} × ${trim(other.cache_ratio ?? 1)}`} />}
        {(other.cache_creation_tokens ?? 0) > 0 && <Fact label={t('logs:detail.cacheWriteTokens')} value={`${other.cache_creation_tokens} × ${trim(other.cache_creation_ratio ?? 1)}`} />}
        {(other.reasoning_tokens ?? 0) > 0 && <Fact label={t('logs:detail.reasoningTokens')} value={other.reasoning_tokens ?? 0} />}
        {(other.frt ?? -1) >= 0 && <Fact label={t('logs:detail.firstToken')} value={t('logs:seconds', { value: ((other.frt ?? 0) / 1000).toFixed(2) })} />}
        <Fact label={t('logs:detail.quota')} value={log.quota} />
      </Stack>
      {other.is_model_mapped && other.upstream_model_name && (
        <Typography variant="body2">
          {t('logs:detail.mapped', { from: log.model_name, to: other.upstream_model_name })}
        </Typography>
      )}
      {admin && retries.length > 1 && (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Typography variant="body2">{t('logs:detail.channels')}</Typography>
          {retries.map((id, index) => (
            <Chip key={`${id}-${index}`} size="small" variant="outlined" label={`#${id}`} />
          ))}
        </Stack>
      )}
      {explanation && (
        <Box sx={{ p: 1.25, borderRadius: 1, bgcolor: 'action.hover' }}>
          <Typography variant="caption" color="text.secondary">
            {perCall ? t('logs:detail.formulaPerCall') : t('logs:detail.formulaPerToken')}
          </Typography>
          <Typography variant="body2" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', wordBreak: 'break-word' }} data-testid={`log-formula-${log.id}`}>
            {explanation.formula}
          </Typography>
        </Box>
      )}
      {text && (
        <Typography variant="body2" color="text.secondary" data-testid={`log-detail-text-${log.id}`}>
          {text}
        </Typography>
      )}
    </Stack>
  );
}
