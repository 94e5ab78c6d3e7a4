import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ROLE_ADMIN, ROLE_ROOT } from '../../lib/session';

export const STATUS_ENABLED = 1;
export const STATUS_DISABLED = 2;

export function RoleChip({ role }: { role: number }) {
  const { t } = useTranslation();
  if (role === ROLE_ROOT) return <Chip size="small" color="error" variant="outlined" label={t('users:role.root')} />;
  if (role === ROLE_ADMIN) return <Chip size="small" color="warning" variant="outlined" label={t('users:role.admin')} />;
  if (role === 1) return <Chip size="small" variant="outlined" label={t('users:role.user')} />;
  return <Chip size="small" variant="outlined" label={t('users:role.unknown')} />;
}

export function StatusChip({ status, deleted }: { status: number; deleted: boolean }) {
  const { t } = useTranslation();
  if (deleted) return <Chip size="small" label={t('users:status.deleted')} />;
  if (status === STATUS_ENABLED) return <Chip size="small" color="success" label={t('users:status.enabled')} />;
  if (status === STATUS_DISABLED) return <Chip size="small" color="error" label={t('users:status.disabled')} />;
  return <Chip size="small" color="default" label={t('users:status.unknown')} />;
}
