import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { NewPasswordFields } from '../../components/form/NewPasswordFields';
import { DrawerFormActions, DrawerLoading, SideDrawer } from '../../components/SideDrawer';
import { renderQuota } from '../../lib/quota';
import { toast } from '../../lib/toast';
import { BudgetFields } from '../budget/BudgetFields';
import { BudgetUsageBars } from '../budget/BudgetUsageBars';
import { fromBudgetForm, toBudgetForm, type BudgetForm } from '../budget/budget';
import { usersApi, type AdminUser } from './api';
import { ResetTwoFactorButton } from '../identity/ResetTwoFactorButton';
import { UserSubscriptions } from './UserSubscriptions';

interface EditUserForm {
  username: string;
  display_name: string;
  password: string;
  group: string;
  quota: string;
  remark: string;
  budget: BudgetForm;
}

const BINDINGS = ['email', 'github_id', 'oidc_id', 'wechat_id', 'telegram_id', 'linux_do_id'] as const;
const INTEGER = /^-?\d+$/;

/** Dialog to add (or, with a negative amount, subtract) quota; shows the resulting balance. */
function AddQuotaDialog({ open, current, onClose, onApply }: { open: boolean; current: number; onClose: () => void; onApply: (quota: number) => void }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const valid = INTEGER.test(amount.trim());
  const next = current + (valid ? parseInt(amount, 10) : 0);
  useEffect(() => {
    if (open) setAmount('');
  }, [open]);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('users:edit.addQuota')}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          sx={{ mt: 1 }}
          label={t('users:edit.addQuotaAmount')}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          error={amount !== '' && !valid}
          helperText={amount !== '' && !valid ? t('users:validation.quotaInteger') : t('users:edit.addQuotaHint')}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'add-quota-amount' } }}
        />
        <Typography variant="body2" sx={{ mt: 2 }} data-testid="add-quota-result">
          {t('users:edit.newQuota', { quota: next, display: renderQuota(next) })}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
        <Button variant="contained" disabled={!valid} onClick={() => onApply(next)}>
          {t('common:actions.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function EditUserDrawer({ userId, onClose, onSaved }: { userId: number | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [user, setUser] = useState<AdminUser | null>(null);
  const [groups, setGroups] = useState<string[]>([]);
  const [addQuotaOpen, setAddQuotaOpen] = useState(false);
  const { control, handleSubmit, reset, setValue, formState } = useForm<EditUserForm>({
    defaultValues: { username: '', display_name: '', password: '', group: '', quota: '0', remark: '', budget: toBudgetForm() },
  });
  const quota = useWatch({ control, name: 'quota' });

  useEffect(() => {
    if (userId === null) return;
    setUser(null);
    let active = true;
    void Promise.all([usersApi.get(userId), usersApi.groups()]).then(([userResult, groupsResult]) => {
      if (!active) return;
      if (groupsResult.ok) setGroups(groupsResult.data ?? []);
      if (!userResult.ok) return;
      setUser(userResult.data);
      reset({
        username: userResult.data.username,
        display_name: userResult.data.display_name ?? '',
        password: '',
        group: userResult.data.group ?? 'default',
        quota: String(userResult.data.quota ?? 0),
        remark: userResult.data.remark ?? '',
        budget: toBudgetForm(userResult.data),
      });
    });
    return () => {
      active = false;
    };
  }, [userId, reset]);

  async function onSubmit(values: EditUserForm) {
    if (!user) return;
    const result = await usersApi.update({
      id: user.id,
      username: values.username.trim(),
      display_name: values.display_name.trim(),
      password: values.password,
      group: values.group,
      quota: parseInt(values.quota, 10),
      original_quota: user.quota,
      remark: values.remark,
      ...fromBudgetForm(values.budget),
    });
    if (result.ok) {
      toast.success(t('users:edit.success'));
      onSaved();
      onClose();
    }
  }

  const groupOptions = user && !groups.includes(user.group) ? [user.group, ...groups] : groups;
  const quotaNumber = INTEGER.test(quota ?? '') ? parseInt(quota, 10) : 0;

  return (
    <SideDrawer
      open={userId !== null}
      onClose={onClose}
      title={t('users:edit.title')}
      testId="edit-user-drawer"
      actions={<DrawerFormActions formId="edit-user-form" disabled={!user || formState.isSubmitting} onCancel={onClose} submitLabel={t('common:actions.save')} />}
    >
      {!user ? (
        <DrawerLoading />
      ) : (
        <Box component="form" id="edit-user-form" noValidate onSubmit={handleSubmit(onSubmit)}>
          <Stack spacing={2.5}>
            <FormTextField
              name="username"
              control={control}
              rules={{ required: 'users:validation.usernameRequired', maxLength: { value: 12, message: 'auth:validation.usernameTooLong' } }}
              label={t('users:fields.username')}
            />
            <FormTextField name="display_name" control={control} label={t('users:fields.displayName')} />
            <NewPasswordFields control={control} name="password" label={t('users:fields.password')} helperText={t('users:edit.passwordHint')} optional />
            <FormTextField name="group" control={control} select label={t('users:fields.group')}>
              {groupOptions.map((group) => (
                <MenuItem key={group} value={group}>
                  {group}
                </MenuItem>
              ))}
            </FormTextField>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <FormTextField
                name="quota"
                control={control}
                rules={{ validate: (value) => INTEGER.test(String(value).trim()) || 'users:validation.quotaInteger' }}
                label={t('users:fields.quota')}
                helperText={renderQuota(quotaNumber)}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
              <Button variant="outlined" onClick={() => setAddQuotaOpen(true)} sx={{ whiteSpace: 'nowrap', height: 40, flexShrink: 0 }}>
                {t('users:edit.addQuota')}
              </Button>
            </Stack>
            <FormTextField name="remark" control={control} label={t('users:fields.remark')} multiline minRows={2} />
            <Divider textAlign="left">
              <Typography variant="caption" color="text.secondary">
                {t('budget:section')}
              </Typography>
            </Divider>
            <BudgetUsageBars usage={user.budget_usage} testId="user-budget-usage" />
            <BudgetFields control={control} testId="user-budget" />
            <UserSubscriptions userId={user.id} />
            <Divider textAlign="left">
              <Typography variant="caption" color="text.secondary">
                {t('users:edit.bindings')}
              </Typography>
            </Divider>
            {BINDINGS.map((binding) => (
              <TextField
                key={binding}
                label={t(`users:bindings.${binding}`)}
                value={user[binding] || ''}
                placeholder={t('users:edit.notBound')}
                slotProps={{ htmlInput: { readOnly: true }, inputLabel: { shrink: true } }}
                disabled
              />
            ))}
            <ResetTwoFactorButton userId={user.id} />
          </Stack>
        </Box>
      )}
      <AddQuotaDialog
        open={addQuotaOpen}
        current={quotaNumber}
        onClose={() => setAddQuotaOpen(false)}
        onApply={(next) => {
          setValue('quota', String(next), { shouldDirty: true, shouldValidate: true });
          setAddQuotaOpen(false);
        }}
      />
    </SideDrawer>
  );
}
