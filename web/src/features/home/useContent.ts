import { useEffect, useState } from 'react';
import type { ApiResult } from '../../api/client';

/** Loads one piece of administrator content; `null` while loading, '' when unset or unavailable. */
export function useContent(load: () => Promise<ApiResult<string>>): string | null {
  const [content, setContent] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    void load().then((result) => {
      if (active) setContent(result.ok ? (result.data ?? '').trim() : '');
    });
    return () => {
      active = false;
    };
  }, [load]);
  return content;
}
