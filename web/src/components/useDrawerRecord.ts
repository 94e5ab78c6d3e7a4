import { useEffect, useState, type DependencyList } from 'react';
import type { ApiResult } from '../api/client';

/** What a record drawer edits: nothing (closed), a new record, or the record with this id. */
export type DrawerTarget = 'add' | number | null;

export interface DrawerRecordSource<T> {
  /** Reads the record with this id. */
  load: (id: number) => Promise<ApiResult<T>>;
  /** Fills the form: with the record read, or blank (undefined) for a new one. */
  fill: (record: T | undefined) => void;
  /** Closes the drawer; called when the record cannot be read. */
  onClose: () => void;
}

/**
 * Fills a drawer's form each time it opens: blank for 'add', otherwise with the record read by
 * id (the drawer closes when it cannot be read). Answers whether the form holds it yet. An answer
 * that arrives after the drawer closed or moved to another record is dropped. The callbacks are
 * those of the render in which the target changed; `deps` are further values whose change fills
 * the form again (a blank form's defaults).
 */
export function useDrawerRecord<T>(target: DrawerTarget, { load, fill, onClose }: DrawerRecordSource<T>, deps: DependencyList = []): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (target === null) return;
    let active = true;
    setLoaded(false);
    if (target === 'add') {
      fill(undefined);
      setLoaded(true);
    } else {
      void load(target).then((result) => {
        if (!active) return;
        if (!result.ok) return onClose();
        fill(result.data);
        setLoaded(true);
      });
    }
    return () => {
      active = false;
    };
  }, [target, ...deps]);
  return loaded;
}
