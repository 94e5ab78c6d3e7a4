import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { isIconValue } from './iconValue';

/** A model's or vendor's icon: empty, a built-in key or an https URL, checked as the server checks it. */
export function IconField<T extends FieldValues>({ control, name, testId }: { control: Control<T>; name: FieldPath<T>; testId: string }) {
  const { t } = useTranslation();
  return (
    <FormTextField
      control={control}
      name={name}
      label={t('models:fields.icon')}
      helperText={t('models:drawer.iconHelp')}
      rules={{ validate: (value) => isIconValue(String(value)) || 'models:validation.icon' }}
      slotProps={{ htmlInput: { 'data-testid': testId, maxLength: 255 } }}
    />
  );
}
