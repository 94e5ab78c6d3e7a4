import { useTranslation } from 'react-i18next';
import { FormJsonField } from '../../../components/form/FormJsonField';
import { SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';

/** The per-unit price tables, beside the ratio maps: a model listed here is billed by them. */
const MEDIA_KEYS = ['ImagePrices', 'AudioPrices', 'VideoPrices', 'TaskActionPrices'] as const;
const FIELDS = Object.fromEntries(MEDIA_KEYS.map((key) => [key, 'json'])) as Record<(typeof MEDIA_KEYS)[number], 'json'>;

/** JSON editors for the media price tables; the server checks each table's shape and names where it breaks. */
export function MediaPriceSettings() {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: FIELDS });
  return (
    <SettingsSection title={t('settingsPricing:tabs.media')} description={t('settingsPricing:media.hint')} section={section} testId="pricing-media-section">
      {MEDIA_KEYS.map((key) => (
        <FormJsonField
          key={key}
          control={section.control}
          name={fieldPath(key)}
          label={t(`settingsPricing:media.${key}`)}
          helperText={t(`settingsPricing:media.${key}Hint`)}
          minRows={5}
          fullWidth
          data-testid={`pricing-json-${key}`}
        />
      ))}
    </SettingsSection>
  );
}
