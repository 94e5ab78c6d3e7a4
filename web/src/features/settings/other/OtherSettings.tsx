import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form/FormTextField';
import { MarkdownContent } from '../../../components/SafeHtml';
import { toast } from '../../../lib/toast';
import { useStatus } from '../../status/StatusProvider';
import type { OptionKey } from '../api';
import { SettingsSection } from '../SettingsSection';
import { fieldPath, useOptionSection } from '../useOptionSection';
import { checkForUpdate, type UpdateCheckResult } from './updateCheck';

/** Each content option saves on its own, with its own message ("notice updated", …), as the spec lists them. */
const CONTENT: { key: OptionKey; name: string; multiline: boolean }[] = [
  { key: 'Notice', name: 'notice', multiline: true },
  { key: 'SystemName', name: 'systemName', multiline: false },
  { key: 'Logo', name: 'logo', multiline: false },
  { key: 'HomePageContent', name: 'homePage', multiline: true },
  { key: 'About', name: 'about', multiline: true },
  { key: 'Footer', name: 'footer', multiline: true },
];

function ContentSection({ optionKey, name, multiline }: { optionKey: OptionKey; name: string; multiline: boolean }) {
  const { t } = useTranslation();
  const section = useOptionSection({ fields: { [optionKey]: 'text' }, savedMessage: `settings:other.${name}.saved` });
  const label = (key: string) => t(`settings:other.${name}.${key}`);
  return (
    <SettingsSection title={label('title')} section={section} testId={`settings-other-${name}`}>
      <FormTextField
        name={fieldPath(optionKey)}
        control={section.control}
        label={label('label')}
        helperText={label('help')}
        multiline={multiline}
        minRows={multiline ? 4 : undefined}
        maxRows={multiline ? 20 : undefined}
      />
    </SettingsSection>
  );
}

/** Current version, and a check against the configured release listing that fails quietly. */
function VersionSection() {
  const { t } = useTranslation();
  const { status } = useStatus();
  const [checking, setChecking] = useState(false);
  const [newer, setNewer] = useState<Extract<UpdateCheckResult, { kind: 'newer' }> | null>(null);
  const source = status.releases_url ?? '';

  async function check() {
    setChecking(true);
    const result = await checkForUpdate(source, status.version ?? '');
    setChecking(false);
    if (result.kind === 'failed') toast.error(t('settings:other.version.failed'));
    else if (result.kind === 'latest') toast.info(t('settings:other.version.latest'));
    else setNewer(result);
  }

  return (
    <SettingsSection
      title={t('settings:other.version.title')}
      testId="settings-other-version"
      actions={
        <Button variant="outlined" onClick={() => void check()} disabled={checking || source === ''}>
          {t('settings:other.version.check')}
        </Button>
      }
    >
      <Typography data-testid="settings-version">{t('settings:other.version.current', { version: status.version ?? '' })}</Typography>
      {source === '' && (
        <Typography variant="body2" color="text.secondary">
          {t('settings:other.version.noSource')}
        </Typography>
      )}
      <Dialog open={!!newer} onClose={() => setNewer(null)} maxWidth="sm" fullWidth>
        <DialogTitle>{t('settings:other.version.newTitle', { tag: newer?.tag ?? '' })}</DialogTitle>
        <DialogContent>{newer && <MarkdownContent content={newer.notes || t('settings:other.version.noNotes')} />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setNewer(null)}>{t('common:actions.close')}</Button>
          {newer?.url && (
            <Button variant="contained" href={newer.url} target="_blank" rel="noopener noreferrer">
              {t('settings:other.version.open')}
            </Button>
          )}
        </DialogActions>
      </Dialog>
    </SettingsSection>
  );
}

/** The other tab: notice, branding and page content, then version information. */
export default function OtherSettings() {
  return (
    <Stack spacing={3}>
      {CONTENT.map((item) => (
        <ContentSection key={item.key} optionKey={item.key} name={item.name} multiline={item.multiline} />
      ))}
      <VersionSection />
    </Stack>
  );
}
