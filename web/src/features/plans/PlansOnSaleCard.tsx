import { Box, Button, Card, CardContent, CardHeader, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { renderQuota } from '../../lib/quota';
import type { Plan } from './api';
import { planWindowsText } from './planText';

interface PayMethod {
  name: string;
  type: string;
}

/** The plans on sale, each with its allowance and a button per way to pay: the balance, and the online methods when top-up is on. */
export function PlansOnSaleCard({ plans, methods, online, onBuy }: { plans: Plan[]; methods: PayMethod[]; online: boolean; onBuy: (plan: Plan, method: 'balance' | string) => void }) {
  const { t } = useTranslation();
  if (plans.length === 0) return null;
  return (
    <Card data-testid="plans-on-sale">
      <CardHeader title={t('plans:wallet.onSaleTitle')} subheader={t('plans:wallet.onSaleSubtitle')} />
      <CardContent>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(3, 1fr)' } }}>
          {plans.map((plan) => (
            <Stack key={plan.id} spacing={1} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2 }} data-testid={`plan-offer-${plan.id}`}>
              <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
                {plan.name}
              </Typography>
              <Typography variant="h6">{t('plans:wallet.price', { price: plan.price.toFixed(2), days: plan.duration_days })}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
                {planWindowsText(plan, t)}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {[plan.models ? t('plans:wallet.models', { models: plan.models.join(', ') }) : t('plans:allModels'), plan.allow_wallet_fallback ? t('plans:fallback.on') : t('plans:fallback.off')].join(' · ')}
              </Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, pt: 0.5 }}>
                <Button variant="contained" size="small" onClick={() => onBuy(plan, 'balance')} data-testid={`plan-buy-balance-${plan.id}`}>
                  {t('plans:wallet.buyWithBalance', { quota: renderQuota(plan.price_quota) })}
                </Button>
                {online &&
                  plan.price > 0 &&
                  methods.map((method) => (
                    <Button key={method.type} variant="outlined" size="small" onClick={() => onBuy(plan, method.type)} data-testid={`plan-buy-${method.type}-${plan.id}`}>
                      {method.name}
                    </Button>
                  ))}
              </Stack>
            </Stack>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}
