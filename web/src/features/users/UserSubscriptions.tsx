import { useEffect, useState } from 'react';
import { Divider, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { SubscriptionSummary } from '../plans/SubscriptionsCard';
import { usersApi, type Subscription } from './api';

/** The user's subscriptions in the user editor, read-only: what the user's own wallet page shows. */
export function UserSubscriptions({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [subscriptions, setSubscriptions] = useState<Subscription[] | null>(null);

  useEffect(() => {
    let active = true;
    setSubscriptions(null);
    void usersApi.subscriptions(userId).then((result) => {
      if (active && result.ok) setSubscriptions(result.data);
    });
    return () => {
      active = false;
    };
  }, [userId]);

  return (
    <Stack spacing={1.5} data-testid="user-subscriptions">
      <Divider textAlign="left">
        <Typography variant="caption" color="text.secondary">
          {t('users:edit.subscriptions')}
        </Typography>
      </Divider>
      {subscriptions?.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('users:edit.noSubscriptions')}
        </Typography>
      )}
      {subscriptions?.map((subscription) => (
        <SubscriptionSummary key={subscription.id} subscription={subscription} />
      ))}
    </Stack>
  );
}
