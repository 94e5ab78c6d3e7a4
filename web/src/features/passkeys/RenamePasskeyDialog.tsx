import { useEffect } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import type { PasskeyView } from './api';

const nameRules = {
  required: 'identity:passkeys.validation.nameRequired',
  maxLength: { value: 64, message: 'identity:passkeys.validation.nameTooLong' },
};

/** Names a passkey so its owner can tell their phone's from their security key's. */
export function RenamePasskeyDialog({ passkey, onClose, onRename }: { passkey: PasskeyView | null; onClose: () => void; onRename: (name: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const { control, handleSubmit, formState, reset } = useForm<{ name: string }>({ defaultValues: { name: '' } });
  useEffect(() => {
    if (passkey) reset({ name: passkey.name });
  }, [passkey, reset]);

  return (
    <Dialog open={passkey !== null} onClose={onClose} maxWidth="xs" fullWidth>
      <Box component="form" noValidate onSubmit={handleSubmit((values) => onRename(values.name.trim()))} data-testid="passkey-rename-form">
        <DialogTitle>{t('identity:passkeys.rename')}</DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1 }}>
            <FormTextField name="name" control={control} rules={nameRules} label={t('identity:passkeys.name')} autoFocus fullWidth slotProps={{ htmlInput: { 'data-testid': 'passkey-name-input' } }} />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting} data-testid="passkey-rename-save">
            {t('common:actions.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
