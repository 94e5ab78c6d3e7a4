import { useEffect } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Radio, RadioGroup, Stack, useMediaQuery, useTheme } from '@mui/material';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form/FormTextField';
import {
  completionRatioFromPrices,
  inputPriceFromRatio,
  outputPriceFromRatios,
  parseNumberInput,
  ratioFromInputPrice,
  type PricingRow,
} from './pricingRows';

/** Per-token priced by ratio, per-token priced in USD per million tokens, or a fixed price per request. */
type PricingMode = 'ratio' | 'tokenPrice' | 'fixed';

interface RowForm {
  name: string;
  mode: PricingMode;
  price: string;
  ratio: string;
  completionRatio: string;
  cacheRatio: string;
  inputPrice: string;
  outputPrice: string;
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

function formFor(row: PricingRow | null): RowForm {
  const ratio = row?.ratio;
  const completion = row?.completionRatio ?? 1;
  return {
    name: row?.name ?? '',
    mode: row?.price !== undefined ? 'fixed' : 'ratio',
    price: text(row?.price),
    ratio: text(ratio),
    completionRatio: text(row?.completionRatio),
    cacheRatio: text(row?.cacheRatio),
    inputPrice: ratio === undefined ? '' : String(inputPriceFromRatio(ratio)),
    outputPrice: ratio === undefined ? '' : String(outputPriceFromRatios(ratio, completion)),
  };
}

const value = (input: string) => {
  const parsed = parseNumberInput(input);
  return parsed.ok ? parsed.value : undefined;
};

/** The row a submitted form stands for: only the chosen mode's fields, so switching modes clears the others. */
function rowFrom(form: RowForm): PricingRow {
  const name = form.name.trim();
  const cacheRatio = value(form.cacheRatio);
  switch (form.mode) {
    case 'fixed':
      return { name, price: value(form.price) };
    case 'ratio':
      return { name, ratio: value(form.ratio), completionRatio: value(form.completionRatio), cacheRatio };
    case 'tokenPrice': {
      const input = value(form.inputPrice);
      const output = value(form.outputPrice);
      return {
        name,
        ratio: input === undefined ? undefined : ratioFromInputPrice(input),
        completionRatio: input === undefined || output === undefined ? undefined : completionRatioFromPrices(input, output),
        cacheRatio,
      };
    }
  }
}

const NUMBER_RULE = { validate: (input: string) => parseNumberInput(input).ok || 'settingsPricing:errors.notNumber' };

interface PricingRowDialogProps {
  /** The row being edited, `'add'` for a new one, null when closed. */
  target: PricingRow | 'add' | null;
  /** Names already in the table, for the duplicate check on add. */
  existingNames: ReadonlySet<string>;
  onClose: () => void;
  onSubmit: (row: PricingRow) => void;
}

/** Adds or edits one model's price: ratio mode, price-per-million mode (converted to ratios), or fixed price per request. */
export function PricingRowDialog({ target, existingNames, onClose, onSubmit }: PricingRowDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const editing = target !== null && target !== 'add';
  const { control, handleSubmit, reset, setValue } = useForm<RowForm>({ defaultValues: formFor(null) });
  const mode = useWatch({ control, name: 'mode' });
  const [inputPrice, outputPrice] = useWatch({ control, name: ['inputPrice', 'outputPrice'] });

  useEffect(() => {
    if (target !== null) reset(formFor(editing ? target : null));
  }, [target, editing, reset]);

  const preview = mode === 'tokenPrice' ? rowFrom({ ...formFor(null), mode, inputPrice, outputPrice }) : null;

  return (
    <Dialog open={target !== null} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} data-testid="pricing-row-dialog">
      <form onSubmit={handleSubmit((form) => onSubmit(rowFrom(form)))} noValidate>
        <DialogTitle>{editing ? t('settingsPricing:dialog.editTitle') : t('settingsPricing:dialog.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormTextField
              control={control}
              name="name"
              label={t('settingsPricing:columns.name')}
              disabled={editing}
              rules={{
                validate: (name: string) => {
                  if (!name.trim()) return 'settingsPricing:errors.nameRequired';
                  if (!editing && existingNames.has(name.trim())) return 'settingsPricing:errors.duplicateName';
                  return true;
                },
              }}
              slotProps={{ htmlInput: { 'data-testid': 'pricing-row-name' } }}
            />
            <RadioGroup row value={mode} onChange={(event) => setValue('mode', event.target.value as PricingMode)}>
              <FormControlLabel value="ratio" control={<Radio />} label={t('settingsPricing:dialog.modeRatio')} data-testid="pricing-mode-ratio" />
              <FormControlLabel value="tokenPrice" control={<Radio />} label={t('settingsPricing:dialog.modeTokenPrice')} data-testid="pricing-mode-token-price" />
              <FormControlLabel value="fixed" control={<Radio />} label={t('settingsPricing:dialog.modeFixed')} data-testid="pricing-mode-fixed" />
            </RadioGroup>
            {mode === 'fixed' && (
              <FormTextField
                control={control}
                name="price"
                label={t('settingsPricing:columns.price')}
                helperText={t('settingsPricing:dialog.priceHint')}
                rules={{
                  validate: (input: string) => {
                    const parsed = parseNumberInput(input);
                    if (!parsed.ok || parsed.value === undefined) return 'settingsPricing:errors.notNumber';
                    return parsed.value > 0 || 'settingsPricing:errors.zeroPrice';
                  },
                }}
                slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'pricing-row-price' } }}
              />
            )}
            {mode === 'ratio' && (
              <>
                <FormTextField control={control} name="ratio" label={t('settingsPricing:columns.ratio')} helperText={t('settingsPricing:dialog.ratioHint')} rules={NUMBER_RULE} slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'pricing-row-ratio' } }} />
                <FormTextField control={control} name="completionRatio" label={t('settingsPricing:columns.completionRatio')} rules={NUMBER_RULE} slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'pricing-row-completion' } }} />
              </>
            )}
            {mode === 'tokenPrice' && (
              <>
                <FormTextField control={control} name="inputPrice" label={t('settingsPricing:dialog.inputPrice')} rules={NUMBER_RULE} slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'pricing-row-input-price' } }} />
                <FormTextField control={control} name="outputPrice" label={t('settingsPricing:dialog.outputPrice')} rules={NUMBER_RULE} slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'pricing-row-output-price' } }} />
                <Alert severity="info" data-testid="pricing-row-converted">
                  {t('settingsPricing:dialog.converted', { ratio: preview?.ratio ?? '-', completion: preview?.completionRatio ?? '-' })}
                </Alert>
              </>
            )}
            {mode !== 'fixed' && (
              <FormTextField control={control} name="cacheRatio" label={t('settingsPricing:columns.cacheRatio')} helperText={t('settingsPricing:dialog.cacheHint')} rules={NUMBER_RULE} slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'pricing-row-cache' } }} />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="contained" data-testid="pricing-row-submit">
            {t('common:actions.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
