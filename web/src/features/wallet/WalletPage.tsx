import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import RedeemIcon from '@mui/icons-material/Redeem';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { PagedTablePagination } from '../../components/table/PagedTablePagination';
import { EmptyTableRow, TableLoadingBar } from '../../components/table/TableStatus';
import { usePagedRows } from '../../components/table/usePagedRows';
import { renderNumber, renderQuota } from '../../lib/quota';
import { formatTimestamp } from '../../lib/time';
import { toast } from '../../lib/toast';
import { StatTile } from '../personal/StatTile';
import { plansApi, type Plan, type Subscription } from '../plans/api';
import { PlansOnSaleCard } from '../plans/PlansOnSaleCard';
import { SubscriptionsCard } from '../plans/SubscriptionsCard';
import { useStatus } from '../status/StatusProvider';
import { submitPayForm, walletApi, type SelfUser } from './api';

interface PayMethod {
  name: string;
  type: string;
  color?: string;
}

function payMethodsOf(raw: unknown): PayMethod[] {
  const list = typeof raw === 'string' ? (JSON.parse(raw || '[]') as unknown) : raw;
  return Array.isArray(list) ? list.filter((item): item is PayMethod => typeof item?.name === 'string' && typeof item?.type === 'string') : [];
}

const STRIPE = 'stripe';

/** What the amount costs through each kind of provider, as the server prices it ("0.00" text). */
interface Payable {
  epay: string;
  stripe: string;
}

const fetchHistory = (_query: null, page: number, pageSize: number) => walletApi.history(page, pageSize);

/** The wallet: balance, the user's subscriptions and the plans on sale, redeeming a code, online top-up and the user's own top-up orders. */
export function WalletPage() {
  const { t } = useTranslation();
  const { status } = useStatus();
  const [user, setUser] = useState<SelfUser | null>(null);
  const [plansOnSale, setPlansOnSale] = useState<Plan[]>([]);
  const [subscriptions, setSubscriptions] = useState<Subscription[]>([]);
  const [code, setCode] = useState('');
  const [redeeming, setRedeeming] = useState(false);
  const minimum = Math.max(1, status.min_topup || 1);
  // Until the user types, the amount follows MinTopUp: the cached status may still hold an older minimum.
  const [typedAmount, setTypedAmount] = useState<string | null>(null);
  const amount = typedAmount ?? String(minimum);
  // null while the lookup for the amount typed last is under way, so no stale price shows.
  const [payable, setPayable] = useState<Payable | null>(null);
  const history = usePagedRows(fetchHistory, null);
  let methods: PayMethod[] = [];
  try {
    methods = payMethodsOf(status.pay_methods);
  } catch {
    methods = [];
  }
  // Stripe charges its own unit price in US dollars; every other method is Epay's, at Price.
  const paysByStripe = methods.some((method) => method.type === STRIPE);
  const paysByEpay = methods.some((method) => method.type !== STRIPE);

  const loadUser = useCallback(async () => {
    const [self, own] = await Promise.all([walletApi.self(), plansApi.own()]);
    if (self.ok) setUser(self.data);
    if (own.ok) setSubscriptions(own.data);
  }, []);

  useEffect(() => {
    void plansApi.onSale().then((result) => result.ok && setPlansOnSale(result.data));
  }, []);

  useEffect(() => {
    void loadUser();
  }, [loadUser]);

  const amountNumber = Math.floor(Number(amount));
  const amountWhole = /^\d+$/.test(amount.trim());
  const amountValid = amountWhole && amountNumber >= minimum;
  // Why the amount cannot be paid: not a whole number of units, or under MinTopUp.
  const amountError = amountWhole ? t('wallet:online.tooSmall', { min: minimum }) : t('wallet:online.notWhole');

  useEffect(() => {
    if (!status.enable_online_topup || !amountValid) return;
    setPayable(null);
    let active = true;
    const lookUp = async (method?: string) => {
      const result = await walletApi.payable(amountNumber, method);
      return result.ok ? result.data : '0.00';
    };
    const timer = setTimeout(() => {
      void Promise.all([paysByEpay ? lookUp() : '0.00', paysByStripe ? lookUp(STRIPE) : '0.00']).then(([epay, stripe]) => {
        if (active) setPayable({ epay, stripe });
      });
    }, 300);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [status.enable_online_topup, amountNumber, amountValid, paysByEpay, paysByStripe]);

  const payableText = [paysByEpay && t('wallet:online.payable', { money: payable?.epay ?? '…' }), paysByStripe && t('wallet:online.payableStripe', { money: payable?.stripe ?? '…' })]
    .filter(Boolean)
    .join(' · ');
  const methodName = (type: string) => methods.find((method) => method.type === type)?.name ?? type;

  async function redeem() {
    if (!code.trim()) return toast.error(t('wallet:redeem.required'));
    setRedeeming(true);
    const result = await walletApi.redeem(code.trim());
    setRedeeming(false);
    if (!result.ok) return;
    // A code worth nothing carried a plan (a quota code is worth at least 1).
    toast.success(result.data > 0 ? t('wallet:redeem.success', { amount: renderQuota(result.data) }) : t('plans:wallet.redeemedPlan'));
    setCode('');
    void loadUser();
  }

  function buyCode() {
    if (!status.top_up_link) return toast.error(t('wallet:redeem.noLink'));
    window.open(status.top_up_link, '_blank', 'noopener,noreferrer');
  }

  async function pay(method: PayMethod) {
    if (!status.enable_online_topup) return toast.error(t('wallet:online.disabled'));
    if (!amountValid) return toast.error(amountError);
    const result = await walletApi.pay(amountNumber, method.type);
    if (result.ok) submitPayForm(result.data);
  }

  async function buyPlan(plan: Plan, method: 'balance' | string) {
    if (method !== 'balance') {
      const result = await plansApi.payOnline(plan.id, method);
      if (result.ok) submitPayForm(result.data);
      return;
    }
    const result = await plansApi.buyWithBalance(plan.id);
    if (!result.ok) return;
    toast.success(t('plans:wallet.bought', { name: plan.name }));
    void loadUser();
  }

  function changeAmount(value: string) {
    // Below 1 is lifted to 1, as the spec asks; the minimum itself is checked on paying.
    setTypedAmount(value !== '' && /^\d+$/.test(value) && Number(value) < 1 ? '1' : value);
  }

  return (
    <PageContainer maxWidth="lg">
      <PageHeader title={t('wallet:title')} subtitle={t('wallet:subtitle')} />
      <Stack spacing={2.5}>
        <Card>
          <CardContent>
            <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
              <StatTile label={t('wallet:balance.quota')} value={user ? renderQuota(user.quota) : '…'} testId="wallet-balance" />
              <StatTile label={t('wallet:balance.used')} value={user ? renderQuota(user.used_quota) : '…'} />
              <StatTile label={t('wallet:balance.requests')} value={user ? renderNumber(user.request_count) : '…'} />
            </Box>
          </CardContent>
        </Card>
        <SubscriptionsCard subscriptions={subscriptions} />
        <PlansOnSaleCard plans={plansOnSale} methods={methods} online={!!status.enable_online_topup} onBuy={(plan, method) => void buyPlan(plan, method)} />
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <Card>
            <CardHeader title={t('wallet:redeem.title')} subheader={t('wallet:redeem.subtitle')} />
            <CardContent>
              <Stack spacing={1.5}>
                <TextField
                  label={t('wallet:redeem.code')}
                  value={code}
                  onChange={(event) => setCode(event.target.value)}
                  onKeyDown={(event) => event.key === 'Enter' && void redeem()}
                  slotProps={{ htmlInput: { 'data-testid': 'redeem-code', maxLength: 64 } }}
                />
                <Stack direction="row" spacing={1}>
                  <Button variant="contained" startIcon={<RedeemIcon />} disabled={redeeming} onClick={() => void redeem()} data-testid="redeem-submit">
                    {t('wallet:redeem.submit')}
                  </Button>
                  <Button variant="outlined" startIcon={<OpenInNewIcon />} onClick={buyCode} data-testid="buy-code">
                    {t('wallet:redeem.buy')}
                  </Button>
                </Stack>
              </Stack>
            </CardContent>
          </Card>
          <Card>
            <CardHeader title={t('wallet:online.title')} subheader={paysByEpay ? t('wallet:online.subtitle', { price: status.price }) : undefined} />
            <CardContent>
              {!status.enable_online_topup ? (
                <Alert severity="info" data-testid="online-disabled">
                  {t('wallet:online.disabled')}
                </Alert>
              ) : (
                <Stack spacing={1.5}>
                  <TextField
                    label={t('wallet:online.amount')}
                    value={amount}
                    onChange={(event) => changeAmount(event.target.value.trim())}
                    error={!amountValid}
                    helperText={amountValid ? payableText : amountError}
                    slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'topup-amount' }, formHelperText: { 'data-testid': 'topup-payable' } as object }}
                  />
                  <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                    {methods.map((method) => (
                      <Button key={method.type} variant="outlined" onClick={() => void pay(method)} data-testid={`pay-${method.type}`}>
                        {method.name}
                      </Button>
                    ))}
                    {methods.length === 0 && <Typography color="error">{t('wallet:online.methodError')}</Typography>}
                  </Stack>
                </Stack>
              )}
            </CardContent>
          </Card>
        </Box>
        <Card>
          <CardHeader title={t('wallet:history.title')} />
          <TableLoadingBar loading={history.loading} />
          <TableContainer>
            <Table size="small" sx={{ minWidth: 640 }} data-testid="topup-history">
              <TableHead>
                <TableRow>
                  <TableCell>{t('wallet:history.tradeNo')}</TableCell>
                  <TableCell>{t('wallet:history.amount')}</TableCell>
                  <TableCell>{t('wallet:history.money')}</TableCell>
                  <TableCell>{t('wallet:history.method')}</TableCell>
                  <TableCell>{t('wallet:history.status')}</TableCell>
                  <TableCell>{t('wallet:history.created')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {history.rows.map((order) => (
                  <TableRow key={order.id} hover>
                    <TableCell sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' }}>{order.trade_no}</TableCell>
                    <TableCell>{order.plan_id ? t('plans:wallet.planOrder', { id: order.plan_id }) : renderQuota(order.quota)}</TableCell>
                    <TableCell>{order.money}</TableCell>
                    <TableCell>{methodName(order.payment_method)}</TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" color={order.status === 'success' ? 'success' : 'default'} label={t(`wallet:history.statuses.${order.status === 'success' ? 'success' : 'pending'}`)} />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(order.create_time)}</TableCell>
                  </TableRow>
                ))}
                {!history.loading && history.rows.length === 0 && <EmptyTableRow colSpan={6} />}
              </TableBody>
            </Table>
          </TableContainer>
          <PagedTablePagination {...history.pagination} />
        </Card>
      </Stack>
    </PageContainer>
  );
}

/** Where the payment provider sends the browser back: the balance moves once the provider's notice arrives. */
export function TopUpReturnPage() {
  const { t } = useTranslation();
  return (
    <PageContainer maxWidth="sm">
      <Alert severity="success" data-testid="topup-return" action={<Button href="/topup">{t('wallet:return.back')}</Button>}>
        {t('wallet:return.message')}
      </Alert>
    </PageContainer>
  );
}
