import { Avatar } from '@mui/material';
import { BUILT_IN_ICONS } from './modelMeta';

/**
 * A model's or vendor's icon: a built-in key draws a coloured monogram; an https URL is loaded by the
 * browser without a referrer; otherwise the first letter of `name`.
 */
export function ModelIcon({ icon, name, size = 24 }: { icon: string; name: string; size?: number }) {
  const sx = { width: size, height: size, fontSize: size * 0.5, fontWeight: 700 };
  if (icon.startsWith('https://')) return <Avatar src={icon} alt={name} variant="rounded" sx={sx} slotProps={{ img: { referrerPolicy: 'no-referrer', loading: 'lazy' } }} />;
  const builtIn = BUILT_IN_ICONS[icon];
  return (
    <Avatar variant="rounded" sx={{ ...sx, bgcolor: builtIn?.color ?? 'grey.500', color: '#fff' }} aria-hidden>
      {builtIn?.letter ?? (name.trim()[0] ?? '?').toUpperCase()}
    </Avatar>
  );
}
