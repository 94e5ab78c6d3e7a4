import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { MediaPrices } from '@shared/pricing/pricing.wire';

/** The key of a table entry that matches any size, quality or resolution not listed. */
const ANY_VARIANT = '*';

interface MediaPriceLinesProps {
  prices: MediaPrices;
  /** A USD unit price, at the viewed group's ratio, as the page shows money. */
  format: (usd: number) => string;
  testId: string;
}

/** A model's per-unit media prices, one line per entry: images by size and quality, audio and video by second, task calls. */
export function MediaPriceLines({ prices, format, testId }: MediaPriceLinesProps) {
  const { t } = useTranslation();
  const variant = (key: string) => (key === ANY_VARIANT ? t('pricing:media.anyVariant') : key);
  const lines: { key: string; text: string }[] = [];
  for (const [size, bySize] of Object.entries(prices.image ?? {})) {
    if (typeof bySize === 'number') lines.push({ key: `image-${size}`, text: t('pricing:media.image', { variant: variant(size), price: format(bySize) }) });
    else for (const [quality, price] of Object.entries(bySize)) lines.push({ key: `image-${size}-${quality}`, text: t('pricing:media.image', { variant: `${variant(size)} · ${variant(quality)}`, price: format(price) }) });
  }
  if (prices.audio?.input !== undefined) lines.push({ key: 'audio-input', text: t('pricing:media.audioInput', { price: format(prices.audio.input) }) });
  if (prices.audio?.output !== undefined) lines.push({ key: 'audio-output', text: t('pricing:media.audioOutput', { price: format(prices.audio.output) }) });
  for (const [resolution, price] of Object.entries(prices.video ?? {})) lines.push({ key: `video-${resolution}`, text: t('pricing:media.video', { variant: variant(resolution), price: format(price) }) });
  if (prices.call !== undefined) lines.push({ key: 'call', text: t('pricing:media.call', { price: format(prices.call) }) });
  return (
    <div data-testid={testId}>
      {lines.map((line) => (
        <Typography key={line.key} variant="body2">
          {line.text}
        </Typography>
      ))}
    </div>
  );
}
