import { useCallback, useEffect, useMemo, useState } from 'react';
import { Box, Button, Card, CardContent, CardHeader, LinearProgress, MenuItem, Stack, TextField, Typography, useMediaQuery, useTheme } from '@mui/material';
import Grid from '@mui/material/Grid';
import SearchIcon from '@mui/icons-material/Search';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { quotaPerUnit, renderNumber, renderQuota } from '../../lib/quota';
import { isAdmin, useSessionUser } from '../../lib/session';
import { StorageKey } from '../../lib/storage';
import { useStatus } from '../status/StatusProvider';
import { detailApi, GRANULARITIES, MAX_HOURLY_WINDOW_DAYS, type DataQuery, type Granularity, type QuotaDataView } from './api';
import { buildUsageSeries, OTHER_MODELS } from './usage-series';

const CHART_HEIGHT = 300;
const MODEL_COLORS = ['#4254FB', '#FFB422', '#FA4F58', '#0DBEFF', '#22BF75', '#A855F7', '#F97316', '#14B8A6', '#94A3B8'];
const DAY = 86_400;
/** How far back the window opens by default, per granularity. */
const DEFAULT_SPAN: Record<Granularity, number> = { hour: DAY, day: 7 * DAY, week: 8 * 7 * DAY };

const pad = (value: number) => String(value).padStart(2, '0');
function toInputValue(seconds: number): string {
  const date = new Date(seconds * 1000);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
function fromInputValue(value: string): number {
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? 0 : Math.floor(time / 1000);
}
function bucketLabel(seconds: number, granularity: Granularity): string {
  const date = new Date(seconds * 1000);
  const day = `${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return granularity === 'hour' ? `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}` : day;
}
/** Quota in the display unit: currency (two decimals) or raw counts. */
function quotaValue(quota: number): number {
  return localStorage.getItem(StorageKey.displayInCurrency) !== 'false' ? Math.round((quota / quotaPerUnit()) * 1e4) / 1e4 : quota;
}

function defaultQuery(granularity: Granularity): DataQuery {
  const end = Math.floor(Date.now() / 1000) + 3600;
  return { start_timestamp: end - DEFAULT_SPAN[granularity], end_timestamp: end, granularity, username: '' };
}

function Total({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h6" data-testid={testId}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** The data dashboard: usage over a window as charts, for the signed-in user or (admins) anyone. */
export function DetailPage() {
  const { t } = useTranslation();
  const admin = isAdmin(useSessionUser());
  const { status } = useStatus();
  const initialGranularity = GRANULARITIES.includes(status.data_export_default_time as Granularity) ? (status.data_export_default_time as Granularity) : 'hour';
  const [draft, setDraft] = useState<DataQuery>(() => defaultQuery(initialGranularity));
  const [query, setQuery] = useState<DataQuery>(draft);
  const [rows, setRows] = useState<QuotaDataView[]>([]);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (current: DataQuery) => {
      setLoading(true);
      const result = await detailApi.load(current, admin);
      setLoading(false);
      if (result.ok) setRows(result.data);
    },
    [admin],
  );
  useEffect(() => void load(query), [load, query]);

  const series = useMemo(() => buildUsageSeries(rows, query.start_timestamp, query.end_timestamp, query.granularity), [rows, query]);
  const labels = series.buckets.map((time) => bucketLabel(time, query.granularity));
  const minutes = Math.max(1, (query.end_timestamp - query.start_timestamp) / 60);
  const modelLabel = (model: string) => (model === OTHER_MODELS ? t('detail:otherModels') : model);
  const empty = rows.length === 0;
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  // The server answers hour by hour for a week at most: say so before the call, beside the granularity.
  const hourlyTooLong = draft.granularity === 'hour' && draft.end_timestamp - draft.start_timestamp > MAX_HOURLY_WINDOW_DAYS * DAY;
  // A few time labels (fewer on a phone): measuring labels for overlap ('auto') hides them all in some browsers.
  const labelStep = Math.ceil(labels.length / (phone ? 3 : 8));
  // One colour per model in every chart, in order of what each model cost.
  const modelColors = new Map([...new Set([...series.quotaByModel.keys(), ...series.callsByModel.map((entry) => entry.model)])].map((model, index) => [model, MODEL_COLORS[index % MODEL_COLORS.length]]));
  const timeAxis = { data: labels, height: 40, tickLabelInterval: (_value: string, index: number) => index % labelStep === 0 };

  return (
    <PageContainer maxWidth="xl">
      <PageHeader title={t('detail:title')} subtitle={t('detail:subtitle')} />
      <Card sx={{ mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ p: 2 }}>
          <TextField
            type="datetime-local"
            label={t('detail:filters.start')}
            value={toInputValue(draft.start_timestamp)}
            onChange={(event) => setDraft({ ...draft, start_timestamp: fromInputValue(event.target.value) })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'detail-start' } }}
            size="small"
          />
          <TextField
            type="datetime-local"
            label={t('detail:filters.end')}
            value={toInputValue(draft.end_timestamp)}
            onChange={(event) => setDraft({ ...draft, end_timestamp: fromInputValue(event.target.value) })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'detail-end' } }}
            size="small"
          />
          <TextField
            select
            label={t('detail:filters.granularity')}
            value={draft.granularity}
            onChange={(event) => setDraft({ ...draft, granularity: event.target.value as Granularity })}
            size="small"
            sx={{ minWidth: 140 }}
            error={hourlyTooLong}
            helperText={hourlyTooLong ? t('detail:hourlyTooLong', { days: MAX_HOURLY_WINDOW_DAYS }) : undefined}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'detail-granularity' } as object }, formHelperText: { 'data-testid': 'detail-granularity-hint' } as object }}
          >
            {GRANULARITIES.map((granularity) => (
              <MenuItem key={granularity} value={granularity} data-testid={`detail-granularity-${granularity}`}>
                {t(`detail:granularity.${granularity}`)}
              </MenuItem>
            ))}
          </TextField>
          {admin && (
            <TextField
              label={t('detail:filters.username')}
              placeholder={t('detail:filters.allUsers')}
              value={draft.username}
              onChange={(event) => setDraft({ ...draft, username: event.target.value })}
              size="small"
              slotProps={{ htmlInput: { 'data-testid': 'detail-username' } }}
            />
          )}
          <Button variant="contained" startIcon={<SearchIcon />} onClick={() => setQuery({ ...draft })} disabled={hourlyTooLong} sx={{ flexShrink: 0, whiteSpace: 'nowrap' }} data-testid="detail-query">
            {t('detail:filters.query')}
          </Button>
        </Stack>
        {loading && <LinearProgress />}
      </Card>

      <Grid container spacing={2} sx={{ mb: 2 }}>
        <Grid size={{ xs: 6, md: 2.4 }}>
          <Total label={t('detail:totals.quota')} value={renderQuota(series.totals.quota)} testId="detail-total-quota" />
        </Grid>
        <Grid size={{ xs: 6, md: 2.4 }}>
          <Total label={t('detail:totals.calls')} value={renderNumber(series.totals.calls)} testId="detail-total-calls" />
        </Grid>
        <Grid size={{ xs: 6, md: 2.4 }}>
          <Total label={t('detail:totals.tokens')} value={renderNumber(series.totals.tokens)} testId="detail-total-tokens" />
        </Grid>
        <Grid size={{ xs: 6, md: 2.4 }}>
          <Total label={t('detail:totals.rpm')} value={(series.totals.calls / minutes).toFixed(2)} testId="detail-avg-rpm" />
        </Grid>
        <Grid size={{ xs: 12, md: 2.4 }}>
          <Total label={t('detail:totals.tpm')} value={(series.totals.tokens / minutes).toFixed(2)} testId="detail-avg-tpm" />
        </Grid>
      </Grid>

      {empty && !loading ? (
        <Card>
          <CardContent>
            <Typography color="text.secondary" data-testid="detail-empty">
              {t('detail:empty')}
            </Typography>
          </CardContent>
        </Card>
      ) : (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, lg: 8 }}>
            <Card data-testid="detail-chart-consumption">
              <CardHeader title={t('detail:charts.consumption')} slotProps={{ title: { variant: 'subtitle1' } }} />
              <Box sx={{ px: 1 }}>
                <BarChart
                  skipAnimation
                  height={CHART_HEIGHT}
                  xAxis={[{ scaleType: 'band', ...timeAxis }]}
                  series={[...series.quotaByModel.entries()].map(([model, values]) => ({ label: modelLabel(model), data: values.map(quotaValue), stack: 'quota', color: modelColors.get(model) }))}
                />
              </Box>
            </Card>
          </Grid>
          <Grid size={{ xs: 12, lg: 4 }}>
            <Card data-testid="detail-chart-calls">
              <CardHeader title={t('detail:charts.calls')} slotProps={{ title: { variant: 'subtitle1' } }} />
              <Box sx={{ px: 1 }}>
                <PieChart skipAnimation height={CHART_HEIGHT} series={[{ innerRadius: 50, data: series.callsByModel.map((entry, id) => ({ id, value: entry.calls, label: entry.model, color: modelColors.get(entry.model) })) }]} />
              </Box>
            </Card>
          </Grid>
          <Grid size={12}>
            <Card data-testid="detail-chart-tokens">
              <CardHeader title={t('detail:charts.tokens')} slotProps={{ title: { variant: 'subtitle1' } }} />
              <Box sx={{ px: 1 }}>
                <LineChart
                  skipAnimation
                  height={CHART_HEIGHT}
                  xAxis={[{ scaleType: 'point', ...timeAxis }]}
                  series={[
                    { label: t('detail:charts.tokenSeries'), data: series.tokens, area: true, showMark: false },
                    { label: t('detail:charts.callSeries'), data: series.calls, showMark: false, yAxisId: 'calls' },
                  ]}
                  yAxis={[{ id: 'tokens', valueFormatter: (value: number) => renderNumber(value) }, { id: 'calls', position: 'right' }]}
                />
              </Box>
            </Card>
          </Grid>
        </Grid>
      )}
    </PageContainer>
  );
}
