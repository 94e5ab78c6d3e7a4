import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { StorageKey } from '../../lib/storage';

/**
 * Keeps the `aff` code of an invitation link (`/register?aff=CODE`, or `/login?aff=CODE`) in
 * local storage, where registration and third-party sign-up read it to credit the inviter.
 */
export function useReferralCode(): void {
  const [searchParams] = useSearchParams();
  useEffect(() => {
    const aff = searchParams.get('aff');
    if (aff) localStorage.setItem(StorageKey.aff, aff);
  }, [searchParams]);
}
