import { useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/CopyProvider';
import { FormTextField } from '../../components/form/FormTextField';
import { NewPasswordFields } from '../../components/form/NewPasswordFields';
import { endSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { personalApi, type SelfUser } from './api';

interface PasswordForm {
  original_password: string;
  password: string;
  password2: string;
}
const EMPTY_PASSWORD: PasswordForm = { original_password: '', password: '', password2: '' };

function PasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, formState } = useForm<PasswordForm>({ defaultValues: EMPTY_PASSWORD });
  useEffect(() => {
    if (open) reset(EMPTY_PASSWORD);
  }, [open, reset]);

  async function onSubmit(values: PasswordForm) {
    const result = await personalApi.changePassword(values.original_password, values.password);
    if (result.ok) {
      toast.success(t('personal:security.passwordChanged'));
      onClose();
    }
  }

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="password-dialog">
      <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <DialogTitle>{t('personal:security.changePassword')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormTextField
              name="original_password"
              control={control}
              rules={{ required: 'personal:validation.originalPasswordRequired' }}
              label={t('personal:security.originalPassword')}
              type="password"
              autoComplete="current-password"
            />
            <NewPasswordFields
              control={control}
              name="password"
              label={t('personal:security.newPassword')}
              placeholder={t('auth:placeholders.password')}
              emptyMessage="auth:validation.passwordTooShort"
              confirmName="password2"
              confirmLabel={t('personal:security.confirmPassword')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t('common:actions.confirm')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function DeleteAccountDialog({ open, username, onClose }: { open: boolean; username: string; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { control, handleSubmit, reset, formState } = useForm<{ confirmation: string }>({ defaultValues: { confirmation: '' } });
  useEffect(() => {
    if (open) reset({ confirmation: '' });
  }, [open, reset]);

  async function onSubmit() {
    const result = await personalApi.deleteSelf();
    if (result.ok) {
      toast.success(t('personal:security.deleted'));
      endSession('/');
      navigate('/');
    }
  }

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="delete-account-dialog">
      <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <DialogTitle>{t('personal:security.deleteAccount')}</DialogTitle>
        <DialogContent>
          <Alert severity="error" sx={{ mb: 2 }}>
            {t('personal:security.deleteWarning')}
          </Alert>
          <FormTextField
            name="confirmation"
            control={control}
            rules={{ validate: (value) => value === username || 'personal:validation.typeUsername' }}
            label={t('personal:security.typeUsername', { username })}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" color="error" variant="contained" disabled={formState.isSubmitting}>
            {t('personal:security.deleteConfirm')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function SecurityRow({ title, description, action }: { title: string; description: string; action: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, py: 1.5 }}>
      <Box sx={{ flex: 1 }}>
        <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
        <Typography variant="body2" color="text.secondary">
          {description}
        </Typography>
      </Box>
      <Box sx={{ flexShrink: 0 }}>{action}</Box>
    </Stack>
  );
}

/** Password change, system access token reset and account deletion. */
export function SecurityCard({ user }: { user: SelfUser }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const [searchParams, setSearchParams] = useSearchParams();
  const [passwordOpen, setPasswordOpen] = useState(searchParams.get('change_password') === '1');
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [accessToken, setAccessToken] = useState('');

  function closePassword() {
    setPasswordOpen(false);
    if (searchParams.has('change_password')) setSearchParams({}, { replace: true });
  }

  async function resetToken() {
    const result = await personalApi.resetAccessToken();
    if (result.ok) {
      setAccessToken(result.data);
      await copy(result.data, t('personal:security.tokenResetCopied'));
    }
  }

  return (
    <Card>
      <CardHeader title={t('personal:security.title')} />
      <CardContent sx={{ pt: 0 }}>
        <SecurityRow
          title={t('personal:security.changePassword')}
          description={t('personal:security.changePasswordHint')}
          action={
            <Button variant="outlined" onClick={() => setPasswordOpen(true)} data-testid="open-password">
              {t('personal:security.changePassword')}
            </Button>
          }
        />
        <Divider />
        <SecurityRow
          title={t('personal:security.accessToken')}
          description={t('personal:security.accessTokenHint')}
          action={
            <Button variant="outlined" onClick={() => void resetToken()} data-testid="reset-token">
              {t('personal:security.resetToken')}
            </Button>
          }
        />
        {accessToken && (
          <TextField
            value={accessToken}
            label={t('personal:security.newToken')}
            sx={{ mb: 1.5 }}
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'access-token' } }}
          />
        )}
        <Divider />
        <SecurityRow
          title={t('personal:security.deleteAccount')}
          description={t('personal:security.deleteHint')}
          action={
            <Button variant="outlined" color="error" onClick={() => setDeleteOpen(true)} data-testid="open-delete-account">
              {t('personal:security.deleteAccount')}
            </Button>
          }
        />
      </CardContent>
      <PasswordDialog open={passwordOpen} onClose={closePassword} />
      <DeleteAccountDialog open={deleteOpen} username={user.username} onClose={() => setDeleteOpen(false)} />
    </Card>
  );
}
