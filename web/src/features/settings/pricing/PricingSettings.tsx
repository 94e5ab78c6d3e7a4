import { useMemo, useState, type ReactNode } from 'react';
import { Box, Button, Card, CardContent, Tab, Tabs, Typography } from '@mui/material';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { FormJsonField } from '../../../components/form/FormJsonField';
import { ROLE_ROOT, useSessionUser } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useOptions } from '../OptionsProvider';
import { SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';
import { pricingSettingsApi } from './api';
import { changedMaps, parseNumberMap, PRICING_MAP_KEYS, type PricingMapKey, type PricingMaps } from './pricingRows';
import { MediaPriceSettings } from './MediaPriceSettings';
import { RatioSync } from './RatioSync';
import { UnpricedModels } from './UnpricedModels';
import { VisualPricingEditor } from './VisualPricingEditor';

/** The JSON editors, in the order the spec lists them, plus the cache-creation and Realtime audio ratios the server bills with. */
const JSON_KEYS = ['ModelPrice', 'ModelRatio', 'CacheRatio', 'CompletionRatio', 'CreateCacheRatio', 'AudioRatio', 'AudioCompletionRatio'] as const;
const FIELDS = Object.fromEntries(JSON_KEYS.map((key) => [key, 'json'])) as Record<(typeof JSON_KEYS)[number], 'json'>;

type SubTab = 'json' | 'visual' | 'unpriced' | 'media' | 'sync';
const SUB_TABS: SubTab[] = ['json', 'visual', 'unpriced', 'media'];
/** Ratio sync is the super administrator's (/api/ratio_sync is root only). */
const ROOT_SUB_TABS: SubTab[] = [...SUB_TABS, 'sync'];

/**
 * The pricing area: the price maps as JSON, the same maps as a table of models, and the models
 * that have no price yet. All three edit one form over the same keys, so a save from any of them
 * goes through the settings save hook and sends only the maps that changed. Root also gets ratio
 * sync, which writes through its own audited call and then refreshes the options.
 */
export default function PricingSettings() {
  const { t } = useTranslation();
  const options = useOptions();
  const section = useOptionSection({ fields: FIELDS });
  const [tab, setTab] = useState<SubTab>('json');
  // A sub-tab is built when first opened and then kept, so unsaved table edits survive a look at another sub-tab.
  const [opened, setOpened] = useState<ReadonlySet<SubTab>>(() => new Set(['json']));
  const [confirmReset, setConfirmReset] = useState(false);
  // The reset is the super administrator's (POST /api/option/rest_model_ratio is root only).
  const isRoot = (useSessionUser()?.role ?? 0) >= ROLE_ROOT;

  // The tables start from what is stored, not from a half-typed JSON field. Keyed on the four stored
  // strings, so a save elsewhere on the page does not throw away a table's unsaved edits.
  const { ModelPrice, ModelRatio, CompletionRatio, CacheRatio } = options.values;
  const saved = useMemo((): PricingMaps | null => {
    const stored: Record<PricingMapKey, string | undefined> = { ModelPrice, ModelRatio, CompletionRatio, CacheRatio };
    const maps = {} as PricingMaps;
    for (const key of PRICING_MAP_KEYS) {
      const map = parseNumberMap(stored[key] ?? '{}');
      if (!map) return null;
      maps[key] = map;
    }
    return maps;
  }, [ModelPrice, ModelRatio, CompletionRatio, CacheRatio]);

  /** Writes the maps a table changed into the form, then saves those maps (and no other) through the hook. */
  function saveMaps(next: PricingMaps) {
    if (!saved) return;
    const changed = changedMaps(saved, next);
    const keys = Object.keys(changed) as PricingMapKey[];
    for (const key of keys) section.form.setValue(fieldPath(key), JSON.stringify(changed[key], null, 2), { shouldDirty: true });
    // Only the maps the table wrote: unsaved edits on the JSON sub-tab are not sent along.
    void section.save(keys);
  }

  function openSubTab(next: SubTab) {
    setTab(next);
    setOpened((previous) => (previous.has(next) ? previous : new Set([...previous, next])));
  }

  const panel = (item: SubTab, content: ReactNode) => opened.has(item) && <Box hidden={tab !== item}>{content}</Box>;

  async function resetToDefaults() {
    setConfirmReset(false);
    const result = await pricingSettingsApi.resetToDefaults();
    if (!result.ok) return;
    // Drop what was typed in the JSON fields, so the refreshed defaults replace all of them.
    section.form.reset();
    await options.refresh();
    toast.success(t('settingsPricing:json.resetDone'));
  }

  return (
    <Card variant="outlined" data-testid="settings-pricing">
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="h6" component="h2">
          {t('settingsPricing:title')}
        </Typography>
      </CardContent>
      <Tabs value={tab} onChange={(_, next: SubTab) => openSubTab(next)} variant="scrollable" allowScrollButtonsMobile sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}>
        {(isRoot ? ROOT_SUB_TABS : SUB_TABS).map((item) => (
          <Tab key={item} value={item} label={t(`settingsPricing:tabs.${item}`)} data-testid={`pricing-tab-${item}`} />
        ))}
      </Tabs>
      <CardContent>
        {panel(
          'json',
          <SettingsSection
            title={t('settingsPricing:tabs.json')}
            description={t('settingsPricing:json.hint')}
            section={section}
            testId="pricing-json-section"
            actions={
              isRoot && (
              <Button color="error" variant="outlined" startIcon={<RestartAltIcon />} onClick={() => setConfirmReset(true)} data-testid="pricing-reset">
                {t('settingsPricing:json.reset')}
              </Button>
              )
            }
          >
            {JSON_KEYS.map((key) => (
              <FormJsonField
                key={key}
                control={section.control}
                name={fieldPath(key)}
                label={t(`settingsPricing:json.${key}`)}
                helperText={t(`settingsPricing:json.${key}Hint`)}
                minRows={6}
                fullWidth
                data-testid={`pricing-json-${key}`}
              />
            ))}
          </SettingsSection>
        )}
        {panel('visual', <VisualPricingEditor maps={saved} saving={section.saving} onSave={saveMaps} />)}
        {panel('unpriced', <UnpricedModels maps={saved} saving={section.saving} onSave={saveMaps} />)}
        {panel('media', <MediaPriceSettings />)}
        {isRoot && panel('sync', <RatioSync />)}
      </CardContent>
      <ConfirmDialog
        open={confirmReset}
        title={t('settingsPricing:json.resetTitle')}
        message={t('settingsPricing:json.resetMessage')}
        confirmLabel={t('settingsPricing:json.reset')}
        danger
        onClose={() => setConfirmReset(false)}
        onConfirm={() => void resetToDefaults()}
      />
    </Card>
  );
}
