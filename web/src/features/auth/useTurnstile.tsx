import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Turnstile } from '../../components/Turnstile';
import { toast } from '../../lib/toast';
import { useStatus } from '../status/StatusProvider';

/**
 * The human check of a public form, when the site has it on: the widget to render, the token the
 * request carries, and `pending()`, true (with a toast) while the check has not finished.
 */
export function useTurnstile() {
  const { t } = useTranslation();
  const { status } = useStatus();
  const [token, setToken] = useState('');
  const widget = status.turnstile_check && status.turnstile_site_key ? <Turnstile siteKey={status.turnstile_site_key} onVerify={setToken} /> : null;

  function pending(): boolean {
    if (!status.turnstile_check || token) return false;
    toast.info(t('auth:turnstileChecking'));
    return true;
  }

  return { token, widget, pending };
}
