import { useEffect, useMemo, useState, type ReactElement } from 'react';
import {
  Alert,
  Button,
  Card,
  Chip,
  FormControlLabel,
  InputAdornment,
  Stack,
  Switch,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/CopyProvider';
import { GroupRatioChip } from '../../components/GroupRatioChip';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { DataTable, type DataTableColumn } from '../../components/table/DataTable';
import { usePaging } from '../../components/table/PagedTablePagination';
import { useSessionUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { useStatus } from '../status/StatusProvider';
import { MediaPriceLines } from './MediaPriceLines';
import { ModelIcon } from '../models/ModelIcon';
import { formatTokenCount, groupByVendor, MODEL_TAGS } from '../models/modelMeta';
import { comparePricing, fetchPricing, matchesPricingFilter, type PricingData, type PricingModel } from './api';

const DEFAULT_GROUP = 'default';
type Currency = 'USD' | 'CNY';

/** Public pricing: every served model with its price in the viewed group. */
export function PricingPage() {
  const { t } = useTranslation();
  const { status } = useStatus();
  const user = useSessionUser();
  const copy = useCopy();
  const [data, setData] = useState<PricingData | null>(null);
  const [loading, setLoading] = useState(true);
  const [search, setSearch] = useState('');
  const [vendorFilter, setVendorFilter] = useState<number | ''>('');
  const [tagFilter, setTagFilter] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [showRatio, setShowRatio] = useState(false);
  const [atTopUpPrice, setAtTopUpPrice] = useState(false);
  const [currency, setCurrency] = useState<Currency>('USD');
  const [viewedGroup, setViewedGroup] = useState(user?.group || DEFAULT_GROUP);
  const { page, setPage, pageSize, setPageSize } = usePaging();

  useEffect(() => {
    void fetchPricing().then((result) => {
      setData(result);
      setLoading(false);
    });
  }, []);

  const vendors = useMemo(() => data?.vendors ?? [], [data]);
  const vendorById = useMemo(() => new Map(vendors.map((vendor) => [vendor.id, vendor])), [vendors]);
  // Grouped by vendor (in the vendors' order, models without one last), then in the spec's order within a vendor.
  const rows = useMemo(() => {
    const known = new Set(vendors.map((vendor) => vendor.id));
    const matching = (data?.models ?? []).filter((model) => matchesPricingFilter(model, { search, vendor: vendorFilter, tag: tagFilter }, known));
    return groupByVendor(matching, vendors.map((vendor) => vendor.id)).flatMap((group) => group.items.sort(comparePricing));
  }, [data, vendors, search, vendorFilter, tagFilter]);
  const vendorCounts = useMemo(() => new Map(groupByVendor(data?.models ?? [], vendors.map((vendor) => vendor.id)).map((group) => [group.vendorId, group.items.length])), [data, vendors]);
  const tagsInUse = useMemo(() => MODEL_TAGS.filter((tag) => (data?.models ?? []).some((model) => model.tags.includes(tag))), [data]);
  const pageRows = rows.slice(page * pageSize, page * pageSize + pageSize);
  const groupRatio = data?.group_ratio[viewedGroup] ?? 1;
  const ownGroup = user?.group || DEFAULT_GROUP;
  const topUpEnabled = !!status.enable_online_topup;
  const exchangeRate = status.usd_exchange_rate || 7.3;
  const topUpPrice = status.price || exchangeRate;

  /** A USD amount in the chosen currency, optionally at what the quota costs through top-up. */
  function displayPrice(usd: number): string {
    let value = usd;
    if (topUpEnabled && atTopUpPrice) value = (usd * topUpPrice) / exchangeRate;
    if (topUpEnabled && currency === 'CNY') return `¥${(value * exchangeRate).toFixed(4).replace(/\.?0+$/, '')}`;
    return `$${value.toFixed(4).replace(/\.?0+$/, '')}`;
  }

  function priceCell(model: PricingModel) {
    if (model.media_prices) return <MediaPriceLines prices={model.media_prices} format={(usd) => displayPrice(usd * groupRatio)} testId={`pricing-media-${model.model_name}`} />;
    if (model.quota_type === 1) return t('pricing:price.perCall', { price: displayPrice(model.model_price * groupRatio) });
    const prompt = model.model_ratio * 2 * groupRatio;
    return (
      <>
        {!model.price_set && (
          <Typography variant="body2" color="warning.main" data-testid={`pricing-unset-${model.model_name}`}>
            {t('pricing:price.unset')}
          </Typography>
        )}
        <Typography variant="body2">{t('pricing:price.prompt', { price: displayPrice(prompt) })}</Typography>
        <Typography variant="body2">{t('pricing:price.completion', { price: displayPrice(prompt * model.completion_ratio) })}</Typography>
      </>
    );
  }

  function copySelected() {
    if (selected.size === 0) return toast.error(t('pricing:selectFirst'));
    void copy([...selected].join(','), t('pricing:copiedModels', { count: selected.size }));
  }

  function switchGroup(group: string) {
    setViewedGroup(group);
    toast.info(t('pricing:groupSwitched', { group, ratio: data?.group_ratio[group] ?? 1 }));
  }

  function selectVendor(vendor: number | '') {
    setVendorFilter(vendor);
    setPage(0);
  }

  function selectTag(tag: string) {
    setTagFilter(tag);
    setPage(0);
  }

  const isAvailable = (model: PricingModel) => model.enable_groups.includes(viewedGroup);

  const columns: DataTableColumn<PricingModel>[] = [
    {
      key: 'available',
      header: 'pricing:columns.available',
      cellData: (model) => ({ 'data-testid': `pricing-available-${model.model_name}`, 'data-available': isAvailable(model) }),
      render: (model) => (
        <Tooltip title={isAvailable(model) ? t('pricing:available', { group: viewedGroup }) : t('pricing:unavailable', { group: viewedGroup })}>
          {isAvailable(model) ? <CheckCircleIcon color="success" fontSize="small" /> : <HighlightOffIcon color="disabled" fontSize="small" />}
        </Tooltip>
      ),
    },
    {
      key: 'model',
      header: 'pricing:columns.model',
      render: (model) => (
        <Stack sx={{ gap: 0.5, alignItems: 'flex-start' }}>
          <Tooltip title={model.description || t('pricing:clickToCopy')}>
            <Chip
              size="small"
              variant="outlined"
              avatar={<ModelIcon icon={model.icon || vendorById.get(model.vendor_id)?.icon || ''} name={model.model_name} size={18} />}
              label={model.model_name}
              onClick={() => void copy(model.model_name)}
              sx={{ fontWeight: 600 }}
            />
          </Tooltip>
          {model.tags.length > 0 && (
            <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }} data-testid={`pricing-tags-${model.model_name}`}>
              {model.tags.map((tag) => (
                <Chip key={tag} size="small" label={t(`models:tags.${tag}`)} sx={{ height: 20, fontSize: 11 }} />
              ))}
            </Stack>
          )}
        </Stack>
      ),
    },
    {
      key: 'vendor',
      header: 'pricing:columns.vendor',
      hideOnPhone: true,
      cellData: (model) => ({ 'data-testid': `pricing-vendor-${model.model_name}` }),
      render: (model) => vendorById.get(model.vendor_id)?.name ?? '—',
    },
    {
      key: 'context',
      header: 'pricing:columns.context',
      cellSx: { whiteSpace: 'nowrap' },
      cellData: (model) => ({ 'data-testid': `pricing-context-${model.model_name}` }),
      render: (model) => (
        <Tooltip title={model.max_output ? t('models:maxOutputValue', { value: formatTokenCount(model.max_output) }) : ''}>
          <span>{formatTokenCount(model.context_length) || '—'}</span>
        </Tooltip>
      ),
    },
    {
      key: 'billing',
      header: 'pricing:columns.billing',
      render: (model) => (
        model.media_prices ? (
          <Chip size="small" color="success" variant="outlined" label={t('pricing:billing.perUnit')} />
        ) : (
          <Chip size="small" color={model.quota_type === 1 ? 'secondary' : 'primary'} variant="outlined" label={model.quota_type === 1 ? t('pricing:billing.perCall') : t('pricing:billing.perToken')} />
        )
      ),
    },
    {
      key: 'groups',
      header: 'pricing:columns.groups',
      render: (model) => (
        <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }}>
          {model.enable_groups
            .filter((group) => group in (data?.usable_group ?? {}))
            .map((group) => (
              <Chip
                key={group}
                size="small"
                clickable
                color={group === viewedGroup ? 'primary' : 'default'}
                variant={group === viewedGroup ? 'filled' : 'outlined'}
                label={group}
                onClick={() => switchGroup(group)}
                data-testid={`pricing-group-${model.model_name}-${group}`}
              />
            ))}
        </Stack>
      ),
    },
    {
      key: 'ratio',
      header: 'pricing:columns.ratio',
      // Shown while the "show ratio" switch is on.
      optional: true,
      cellSx: { whiteSpace: 'nowrap' },
      render: (model) => (
        <>
          {model.quota_type === 0 ? (
            <>
              <Typography variant="body2">{t('pricing:ratio.model', { value: model.model_ratio })}</Typography>
              <Typography variant="body2">{t('pricing:ratio.completion', { value: model.completion_ratio })}</Typography>
            </>
          ) : null}
          <GroupRatioChip ratio={groupRatio} label={t('pricing:ratio.group', { value: groupRatio })} testId={`pricing-group-ratio-${model.model_name}`} />
        </>
      ),
    },
    {
      key: 'price',
      header: 'pricing:columns.price',
      cellSx: { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' },
      cellData: (model) => ({ 'data-testid': `pricing-price-${model.model_name}` }),
      render: priceCell,
    },
  ];

  return (
    <PageContainer maxWidth="xl">
      <PageHeader title={t('pricing:title')} subtitle={t('pricing:subtitle')} />
      {user ? (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="pricing-banner">
          {t('pricing:banner.user', { group: ownGroup, ratio: data?.group_ratio[ownGroup] ?? 1 })}
          {viewedGroup !== ownGroup && ` ${t('pricing:banner.viewing', { group: viewedGroup, ratio: groupRatio })}`}
        </Alert>
      ) : (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="pricing-banner">
          {t('pricing:banner.guest', { group: DEFAULT_GROUP, ratio: data?.group_ratio[DEFAULT_GROUP] ?? 1 })}
          {viewedGroup !== DEFAULT_GROUP && ` ${t('pricing:banner.viewing', { group: viewedGroup, ratio: groupRatio })}`}
        </Alert>
      )}
      {showRatio && (
        <Alert severity="success" icon={false} sx={{ mb: 2 }} data-testid="pricing-formula">
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t('pricing:formula.title')}
          </Typography>
          <Typography variant="body2">{t('pricing:formula.perToken')}</Typography>
          <Typography variant="body2">{t('pricing:formula.prices')}</Typography>
          <Typography variant="body2">{t('pricing:formula.media')}</Typography>
        </Alert>
      )}
      <Card>
        <Stack direction={{ xs: 'column', md: 'row' }} sx={{ p: 2, gap: 1.5, alignItems: { md: 'center' }, flexWrap: 'wrap' }}>
          <TextField
            placeholder={t('pricing:search')}
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(0);
            }}
            sx={{ maxWidth: { md: 320 } }}
            slotProps={{
              input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> },
              htmlInput: { 'data-testid': 'pricing-search', 'aria-label': t('pricing:search') },
            }}
          />
          <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={copySelected} data-testid="pricing-copy-selected" sx={{ flexShrink: 0 }}>
            {t('pricing:copySelected', { count: selected.size })}
          </Button>
          <FormControlLabel control={<Switch checked={showRatio} onChange={(event) => setShowRatio(event.target.checked)} data-testid="pricing-show-ratio" />} label={t('pricing:showRatio')} />
          {topUpEnabled && (
            <>
              <FormControlLabel control={<Switch checked={atTopUpPrice} onChange={(event) => setAtTopUpPrice(event.target.checked)} data-testid="pricing-topup-price" />} label={t('pricing:atTopUpPrice')} />
              <ToggleButtonGroup size="small" exclusive value={currency} onChange={(_, value: Currency | null) => value && setCurrency(value)} data-testid="pricing-currency">
                <ToggleButton value="USD">USD</ToggleButton>
                <ToggleButton value="CNY">CNY</ToggleButton>
              </ToggleButtonGroup>
            </>
          )}
        </Stack>
        {vendors.length > 0 && (
          <Stack direction="row" sx={{ px: 2, pb: 1, gap: 1, flexWrap: 'wrap' }} data-testid="pricing-vendors" role="group" aria-label={t('pricing:vendorFilter')}>
            <FilterChip label={t('pricing:allVendors', { count: data?.models.length ?? 0 })} active={vendorFilter === ''} onClick={() => selectVendor('')} testId="pricing-vendor-all" />
            {vendors.map((vendor) => (
              <FilterChip
                key={vendor.id}
                avatar={<ModelIcon icon={vendor.icon} name={vendor.name} size={18} />}
                label={`${vendor.name} (${vendorCounts.get(vendor.id) ?? 0})`}
                active={vendorFilter === vendor.id}
                onClick={() => selectVendor(vendor.id)}
                testId={`pricing-vendor-${vendor.name}`}
              />
            ))}
            {vendorCounts.has(0) && <FilterChip label={t('pricing:otherVendors', { count: vendorCounts.get(0) })} active={vendorFilter === 0} onClick={() => selectVendor(0)} testId="pricing-vendor-other" />}
          </Stack>
        )}
        {tagsInUse.length > 0 && (
          <Stack direction="row" sx={{ px: 2, pb: 1.5, gap: 1, flexWrap: 'wrap' }} data-testid="pricing-tag-filter" role="group" aria-label={t('pricing:tagFilter')}>
            <FilterChip label={t('pricing:allTags')} active={tagFilter === ''} onClick={() => selectTag('')} testId="pricing-tag-all" />
            {tagsInUse.map((tag) => (
              <FilterChip key={tag} label={t(`models:tags.${tag}`)} active={tagFilter === tag} onClick={() => selectTag(tag)} testId={`pricing-tag-${tag}`} />
            ))}
          </Stack>
        )}
        <DataTable
          columns={columns}
          rows={pageRows}
          rowKey={(model) => model.model_name}
          loading={loading}
          minWidth={1040}
          testId="pricing-table"
          isColumnVisible={(key) => key !== 'ratio' || showRatio}
          rowTestId={(model) => `pricing-row-${model.model_name}`}
          selection={{ selected, onChange: setSelected, selectAllLabel: t('pricing:selectPage'), rowLabel: (model) => model.model_name, keepOffScreen: true }}
          pagination={{ total: rows.length, page, pageSize, onPageChange: setPage, onPageSizeChange: setPageSize }}
        />
      </Card>
    </PageContainer>
  );
}

/** One choice of a chip filter bar: filled while chosen. */
function FilterChip({ label, active, onClick, testId, avatar }: { label: string; active: boolean; onClick: () => void; testId: string; avatar?: ReactElement }) {
  return <Chip size="small" clickable avatar={avatar} label={label} color={active ? 'primary' : 'default'} variant={active ? 'filled' : 'outlined'} onClick={onClick} aria-pressed={active} data-testid={testId} />;
}
