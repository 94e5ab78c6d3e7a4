import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  Stack,
  TextField,
  Tooltip,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/CopyProvider';
import { FormTextField } from '../../components/form/FormTextField';
import { quotaPerUnit, renderNumber, renderQuota } from '../../lib/quota';
import { toast } from '../../lib/toast';
import { personalApi, type SelfUser } from './api';
import { StatTile } from './StatTile';

function TransferDialog({ open, available, onClose, onDone }: { open: boolean; available: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const minimum = quotaPerUnit();
  const { control, handleSubmit, reset, formState } = useForm<{ quota: string }>({ defaultValues: { quota: '' } });

  useEffect(() => {
    if (open) reset({ quota: String(Math.max(available, minimum)) });
  }, [open, available, minimum, reset]);

  async function onSubmit(values: { quota: string }) {
    const result = await personalApi.transferAffQuota(parseInt(values.quota, 10));
    if (result.ok) {
      toast.success(result.message || t('personal:invite.transferSuccess'));
      onDone();
      onClose();
    }
  }

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="transfer-dialog">
      <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <DialogTitle>{t('personal:invite.transferTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {t('personal:invite.transferAvailable', { amount: renderQuota(available) })}
          </DialogContentText>
          <FormTextField
            name="quota"
            control={control}
            label={t('personal:invite.transferAmount')}
            rules={{
              validate: (value) => {
                const amount = Number(value);
                return (Number.isInteger(amount) && amount >= minimum) || 'personal:validation.transferMinimum';
              },
            }}
            messageValues={{ amount: renderQuota(minimum) }}
            helperText={t('personal:invite.transferHint', { amount: renderQuota(minimum) })}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'transfer-amount' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t('personal:invite.transfer')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** The referral link with copy, the invitation figures and the transfer of rewards into the balance. */
export function InvitationCard({ user, onChanged }: { user: SelfUser; onChanged: () => void }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const [affCode, setAffCode] = useState('');
  const [transferOpen, setTransferOpen] = useState(false);

  useEffect(() => {
    void personalApi.affCode().then((result) => result.ok && setAffCode(result.data));
  }, []);

  const link = affCode ? `${window.location.origin}/register?aff=${affCode}` : '';
  return (
    <Card sx={{ height: '100%' }}>
      <CardHeader title={t('personal:invite.title')} subheader={t('personal:invite.subtitle')} />
      <CardContent sx={{ pt: 0 }}>
        <TextField
          value={link}
          label={t('personal:invite.link')}
          slotProps={{
            htmlInput: { readOnly: true, 'data-testid': 'invite-link' },
            input: {
              endAdornment: (
                <Tooltip title={t('common:actions.copy')}>
                  <span>
                    <IconButton
                      size="small"
                      disabled={!link}
                      onClick={() => void copy(link, t('personal:invite.copied'))}
                      aria-label={t('common:actions.copy')}
                    >
                      <ContentCopyIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              ),
            },
          }}
        />
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' }, gap: 1.5, mt: 2 }}>
          <StatTile label={t('personal:invite.count')} value={renderNumber(user.aff_count ?? 0)} />
          <StatTile label={t('personal:invite.pending')} value={renderQuota(user.aff_quota ?? 0)} testId="aff-quota" />
          <StatTile label={t('personal:invite.total')} value={renderQuota(user.aff_history_quota ?? 0)} />
        </Box>
        <Stack direction="row" sx={{ mt: 2 }}>
          <Button variant="outlined" onClick={() => setTransferOpen(true)} data-testid="open-transfer">
            {t('personal:invite.transfer')}
          </Button>
        </Stack>
      </CardContent>
      <TransferDialog open={transferOpen} available={user.aff_quota ?? 0} onClose={() => setTransferOpen(false)} onDone={onChanged} />
    </Card>
  );
}
