import { useEffect, useState } from 'react';
import { Alert, Autocomplete, Box, Button, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { SideDrawer } from '../../components/SideDrawer';
import { toast } from '../../lib/toast';
import { channelsApi, type ChannelTagRow, type TagEdit } from './api';
import { isJsonObjectOrEmpty } from './ChannelEditorDrawer';
import { isValidPriority, isValidWeight } from './InlineNumberField';
import { ModelPicker } from './ModelPicker';

interface TagForm {
  newTag: string;
  models: string[];
  groups: string[];
  modelMapping: string;
  priority: string;
  weight: string;
}

const unionOf = (lists: string[]) => [...new Set(lists.flatMap((list) => list.split(',').map((item) => item.trim()).filter(Boolean)))];

function initialForm(row: ChannelTagRow): TagForm {
  return {
    newTag: row.tag,
    models: unionOf(row.children.map((child) => child.models)),
    groups: unionOf(row.children.map((child) => child.group)),
    modelMapping: '',
    priority: '',
    weight: '',
  };
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((item) => b.includes(item));

/** Edits every channel of a tag at once; only the fields changed here are sent, blank ones stay as they are. */
export function TagEditDrawer({ row, groups, onClose, onSaved }: { row: ChannelTagRow | null; groups: string[]; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<TagForm | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof TagForm, string>>>({});
  const [knownModels, setKnownModels] = useState<string[]>([]);

  useEffect(() => {
    if (!row) return;
    setForm(initialForm(row));
    setErrors({});
    void channelsApi.enabledModels().then((result) => result.ok && setKnownModels(result.data ?? []));
  }, [row]);

  if (!row || !form) return null;
  const initial = initialForm(row);
  const update = (change: Partial<TagForm>) => setForm({ ...form, ...change });

  async function submit() {
    if (!row || !form) return;
    const problems: Partial<Record<keyof TagForm, string>> = {};
    if (form.priority.trim() && !isValidPriority(form.priority.trim())) problems.priority = t('channels:validation.tagPriority');
    if (form.weight.trim() && !isValidWeight(form.weight.trim())) problems.weight = t('channels:validation.tagWeight');
    if (!isJsonObjectOrEmpty(form.modelMapping)) problems.modelMapping = t('channels:validation.modelMappingJson');
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;

    const body: TagEdit = { tag: row.tag };
    if (form.newTag.trim() !== row.tag) body.new_tag = form.newTag.trim();
    if (!sameList(form.models, initial.models)) body.models = form.models.join(',');
    if (!sameList(form.groups, initial.groups)) body.groups = form.groups.join(',');
    if (form.modelMapping.trim()) body.model_mapping = form.modelMapping.trim();
    if (form.priority.trim()) body.priority = Number(form.priority.trim());
    if (form.weight.trim()) body.weight = Number(form.weight.trim());
    if (Object.keys(body).length === 1) {
      toast.info(t('channels:tag.noChanges'));
      return;
    }
    const result = await channelsApi.editTag(body);
    if (result.ok) {
      toast.success(t('channels:tag.saved', { count: result.data }));
      onSaved();
      onClose();
    }
  }

  return (
    <SideDrawer
      open={!!row}
      onClose={onClose}
      title={t('channels:tag.editTitle', { tag: row.tag })}
      testId="tag-editor"
      actions={
        <>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button variant="contained" onClick={() => void submit()} data-testid="tag-submit">
            {t('common:actions.submit')}
          </Button>
        </>
      }
    >
      <Box>
        <Stack spacing={2.25}>
          <Alert severity="info">{t('channels:tag.editHint', { count: row.channel_count })}</Alert>
          <TextField label={t('channels:tag.newTag')} value={form.newTag} onChange={(event) => update({ newTag: event.target.value })} helperText={t('channels:tag.newTagHelp')} slotProps={{ htmlInput: { 'data-testid': 'tag-new-name' } }} />
          <ModelPicker value={form.models} onChange={(models) => update({ models })} options={knownModels} label={t('channels:fields.models')} testId="tag-models" />
          <Autocomplete
            multiple
            size="small"
            freeSolo
            options={groups}
            value={form.groups}
            onChange={(_, next) => update({ groups: next.map((item) => item.trim()).filter(Boolean) })}
            renderInput={(params) => <TextField {...params} label={t('channels:fields.group')} />}
          />
          <TextField
            label={t('channels:fields.modelMapping')}
            value={form.modelMapping}
            onChange={(event) => update({ modelMapping: event.target.value })}
            multiline
            minRows={3}
            error={!!errors.modelMapping}
            helperText={errors.modelMapping ?? t('channels:tag.blankKeeps')}
            slotProps={{ htmlInput: { 'data-testid': 'tag-model-mapping', spellCheck: false, style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 } } }}
          />
          <Stack direction="row" spacing={1.5}>
            <TextField
              label={t('channels:fields.priority')}
              value={form.priority}
              onChange={(event) => update({ priority: event.target.value })}
              error={!!errors.priority}
              helperText={errors.priority ?? t('channels:tag.blankKeeps')}
              slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'tag-priority' } }}
            />
            <TextField
              label={t('channels:fields.weight')}
              value={form.weight}
              onChange={(event) => update({ weight: event.target.value })}
              error={!!errors.weight}
              helperText={errors.weight ?? t('channels:tag.blankKeeps')}
              slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'tag-weight' } }}
            />
          </Stack>
        </Stack>
      </Box>
    </SideDrawer>
  );
}
