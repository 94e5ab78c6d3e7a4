import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from '../../lib/toast';
import { reloadStatus } from '../status/StatusProvider';
import { settingsApi, type OptionKey } from './api';
import { useOptions, type OptionsState } from './OptionsProvider';

/**
 * How a key is edited and sent:
 * - `text`: a string as stored (numbers too: the server checks bounds and normalises);
 * - `bool`: a switch, sent as "true"/"false";
 * - `json`: a string that must parse as JSON (checked on blur by FormJsonField);
 * - `secret`: never shown back; sent only when something was typed.
 */
export type OptionFieldKind = 'text' | 'bool' | 'json' | 'secret';

/** One key a save will send. */
export interface OptionChange {
  key: OptionKey;
  value: string;
}

export interface OptionSectionConfig {
  /** The keys this section edits and how. Keys with dots become nested form paths, as react-hook-form reads them. */
  fields: Partial<Record<OptionKey, OptionFieldKind>>;
  /** Runs before any call with what would be sent; return an i18n key to show as an error and stop. */
  beforeSave?: (changes: OptionChange[], values: FieldValues) => string | undefined;
  /** i18n key of the success message, when the section has its own (e.g. "notice updated"). */
  savedMessage?: string;
}

export interface OptionSection {
  form: UseFormReturn<FieldValues>;
  control: UseFormReturn<FieldValues>['control'];
  /**
   * Sends the changed keys, one PUT each, and reports the outcome in one message. With `only`,
   * just those keys are considered (a table that wrote them), and other fields' edits stay unsent.
   */
  save: (only?: readonly OptionKey[]) => Promise<void>;
  saving: boolean;
  /** For a secret key: whether the server holds a value. */
  isSet: (key: OptionKey) => boolean;
}

type FieldMap = OptionSectionConfig['fields'];

/** Several keys edited the same way, e.g. `{ ...fieldsOfKind(SWITCHES, 'bool') }`. */
export function fieldsOfKind(keys: readonly OptionKey[], kind: OptionFieldKind): FieldMap {
  return Object.fromEntries(keys.map((key) => [key, kind]));
}

/** A form path for a key; dotted keys are nested objects in the form, which react-hook-form reads by the same path. */
export const fieldPath = (key: OptionKey) => key as Path<FieldValues>;

function setPath(target: Record<string, unknown>, key: string, value: unknown) {
  const parts = key.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    node[part] ??= {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}

function toFormValue(kind: OptionFieldKind, stored: string | undefined): unknown {
  if (kind === 'bool') return stored === 'true';
  if (kind === 'secret') return '';
  return stored ?? '';
}

function toWireValue(kind: OptionFieldKind, formValue: unknown): string {
  if (kind === 'bool') return formValue ? 'true' : 'false';
  return formValue === undefined || formValue === null ? '' : String(formValue);
}

function formValuesOf(fields: FieldMap, options: OptionsState): FieldValues {
  const values: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(fields) as [OptionKey, OptionFieldKind][]) setPath(values, key, toFormValue(kind, options.values[key]));
  return values;
}

/** What differs from the stored values (among `only`, when given); a secret counts only when something was typed. */
function changesOf(fields: FieldMap, form: UseFormReturn<FieldValues>, options: OptionsState, only?: readonly OptionKey[]): OptionChange[] {
  const changes: OptionChange[] = [];
  for (const [key, kind] of Object.entries(fields) as [OptionKey, OptionFieldKind][]) {
    if (only && !only.includes(key)) continue;
    const value = toWireValue(kind, form.getValues(fieldPath(key)));
    if (kind === 'secret' ? value.trim() !== '' : value !== (options.values[key] ?? '')) changes.push({ key, value });
  }
  return changes;
}

/** "message" when the server's message already names the key, "key: message" otherwise. */
function describeFailure(key: string, message: string): string {
  return message.includes(key) ? message : `${key}: ${message}`;
}

/**
 * One settings section: a react-hook-form form over a set of option keys, filled from the shared
 * option list. Save sends only the keys that differ from what is stored, one PUT /api/option/
 * each, then shows one message: nothing changed, saved, save failed, or partly failed naming the
 * refused keys with the server's reason. Saved keys are reloaded from the server (which may
 * normalise them); refused keys keep what the user typed.
 */
export function useOptionSection(config: OptionSectionConfig): OptionSection {
  const { t } = useTranslation();
  const options = useOptions();
  const { fields, beforeSave, savedMessage } = config;
  const form = useForm<FieldValues>({ mode: 'onBlur', defaultValues: formValuesOf(fields, options) });
  const [saving, setSaving] = useState(false);

  // A fresh option list (after any section saved) updates every field the user has not edited.
  const seenVersion = useRef(options.version);
  useEffect(() => {
    if (options.version === seenVersion.current) return;
    seenVersion.current = options.version;
    form.reset(formValuesOf(fields, options), { keepDirtyValues: true });
    // Only a new list version resets; `fields` is a fresh literal on every render of a section.
  }, [options.version]);

  const send = useCallback(
    async (values: FieldValues, only?: readonly OptionKey[]) => {
      const changes = changesOf(fields, form, options, only);
      if (changes.length === 0) {
        toast.info(t('settings:messages.nothingChanged'));
        return;
      }
      const refusal = beforeSave?.(changes, values);
      if (refusal) {
        toast.error(t(refusal));
        return;
      }
      setSaving(true);
      const failures: { key: OptionKey; message: string }[] = [];
      for (const change of changes) {
        const result = await settingsApi.updateOption(change);
        if (result.ok) {
          // What was sent is now the baseline: the field stops counting as edited, and a secret empties.
          const kind = fields[change.key] ?? 'text';
          form.resetField(fieldPath(change.key), { defaultValue: kind === 'secret' ? '' : form.getValues(fieldPath(change.key)) });
        } else {
          failures.push({ key: change.key, message: result.message || t('settings:messages.noResponse') });
        }
      }
      if (failures.length < changes.length) {
        // The shell reads published settings (name, logo, sidebar flags) from /api/status.
        await Promise.all([options.refresh(), reloadStatus()]);
      }
      setSaving(false);

      const details = failures.map((failure) => describeFailure(failure.key, failure.message)).join('; ');
      if (failures.length === 0) toast.success(t(savedMessage ?? 'settings:messages.saved'));
      else if (failures.length === changes.length) toast.error(t('settings:messages.saveFailed', { details }));
      else toast.error(t('settings:messages.partialFailed', { details }));
    },
    [fields, form, options, beforeSave, savedMessage, t],
  );

  const submit = useMemo(() => form.handleSubmit((values) => send(values), () => toast.error(t('settings:messages.checkInput'))), [form, send, t]);
  const save = useCallback(
    async (only?: readonly OptionKey[]) => {
      if (!only) return submit();
      // Only the named fields are checked, so a half-typed field elsewhere in the form neither blocks nor joins this save.
      if (!(await form.trigger(only.map(fieldPath)))) {
        toast.error(t('settings:messages.checkInput'));
        return;
      }
      await send(form.getValues(), only);
    },
    [form, submit, send, t],
  );
  const isSet = useCallback((key: OptionKey) => !!options.isSet[key], [options.isSet]);

  return { form, control: form.control, save, saving, isSet };
}
