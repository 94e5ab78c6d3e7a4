import { useEffect } from 'react';
import { Stack } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { DrawerFormActions, SideDrawer } from '../../components/SideDrawer';
import { toast } from '../../lib/toast';
import { modelsApi, type Vendor } from './api';
import { IconField } from './IconField';

interface VendorForm {
  name: string;
  icon: string;
}

/** Create (target 'add') or edit a vendor: its name and icon. */
export function VendorDrawer({ target, onClose, onSaved }: { target: 'add' | Vendor | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, formState } = useForm<VendorForm>({ defaultValues: { name: '', icon: '' } });

  useEffect(() => {
    if (target !== null) reset(target === 'add' ? { name: '', icon: '' } : { name: target.name, icon: target.icon });
  }, [target, reset]);

  async function onSubmit(values: VendorForm) {
    const body = { name: values.name.trim(), icon: values.icon.trim() };
    const result = target === 'add' || target === null ? await modelsApi.createVendor(body) : await modelsApi.updateVendor({ id: target.id, ...body });
    if (!result.ok) return;
    toast.success(t('common:operationDone'));
    onSaved();
    onClose();
  }

  return (
    <SideDrawer
      open={target !== null}
      title={target === 'add' ? t('models:vendors.addTitle') : t('models:vendors.editTitle')}
      onClose={onClose}
      testId="vendor-drawer"
      actions={<DrawerFormActions formId="vendor-form" disabled={formState.isSubmitting} onCancel={onClose} submitTestId="vendor-submit" />}
    >
      <Stack component="form" id="vendor-form" spacing={2.5} onSubmit={handleSubmit(onSubmit)} noValidate>
        <FormTextField
          control={control}
          name="name"
          label={t('models:fields.vendorName')}
          rules={{ validate: (value) => (String(value).trim().length >= 1 && String(value).trim().length <= 64) || 'models:validation.vendorName' }}
          slotProps={{ htmlInput: { 'data-testid': 'vendor-name', maxLength: 64 } }}
        />
        <IconField control={control} name="icon" testId="vendor-icon" />
      </Stack>
    </SideDrawer>
  );
}
