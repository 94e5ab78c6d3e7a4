import { useEffect } from 'react';
import { Box, Stack } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { NewPasswordFields } from '../../components/form/NewPasswordFields';
import { DrawerFormActions, SideDrawer } from '../../components/SideDrawer';
import { toast } from '../../lib/toast';
import { usersApi } from './api';

interface AddUserForm {
  username: string;
  display_name: string;
  password: string;
}

const EMPTY: AddUserForm = { username: '', display_name: '', password: '' };
const usernameRequired = { validate: (value: string) => value.trim() !== '' || 'users:validation.usernamePasswordRequired' };

export function AddUserDrawer({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, formState } = useForm<AddUserForm>({ defaultValues: EMPTY });

  useEffect(() => {
    if (open) reset(EMPTY);
  }, [open, reset]);

  async function onSubmit(values: AddUserForm) {
    const result = await usersApi.create({
      username: values.username.trim(),
      display_name: values.display_name.trim(),
      password: values.password,
    });
    if (result.ok) {
      toast.success(t('users:add.success'));
      onCreated();
      onClose();
    }
  }

  return (
    <SideDrawer
      open={open}
      onClose={onClose}
      title={t('users:add.title')}
      testId="add-user-drawer"
      actions={<DrawerFormActions formId="add-user-form" disabled={formState.isSubmitting} onCancel={onClose} />}
    >
      <Box component="form" id="add-user-form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <Stack spacing={2.5}>
          <FormTextField name="username" control={control} rules={usernameRequired} label={t('users:fields.username')} placeholder={t('auth:placeholders.username')} />
          <FormTextField name="display_name" control={control} label={t('users:fields.displayName')} />
          <NewPasswordFields
            control={control}
            name="password"
            label={t('users:fields.password')}
            placeholder={t('auth:placeholders.password')}
            emptyMessage="users:validation.usernamePasswordRequired"
          />
        </Stack>
      </Box>
    </SideDrawer>
  );
}
