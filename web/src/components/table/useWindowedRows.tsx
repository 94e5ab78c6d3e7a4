import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { TableCell, TableRow } from '@mui/material';

/** Below this many items a table renders every row: windowing only pays off on long pages. */
const WINDOW_FROM = 51;
/** Rows rendered above and below the viewport, so a quick scroll does not show the spacer. */
const OVERSCAN = 8;
/** A small-size table row's height before any row has been measured. */
const ESTIMATED_ROW_HEIGHT = 53;

/** What a windowed table body renders: the slice on screen and the space the rest would take. */
export interface WindowedRows<Item> {
  /** Put on the `<TableBody>`: its position on the page decides which rows are on screen. */
  bodyRef: (body: HTMLTableSectionElement | null) => void;
  items: Item[];
  /** Index of `items[0]` in the full list. */
  offset: number;
  /** Spacer rows standing in for the items above and below the slice (null when there is nothing to stand in for). */
  spacerBefore: React.ReactNode;
  spacerAfter: React.ReactNode;
}

function spacer(height: number, colSpan: number, position: 'before' | 'after'): React.ReactNode {
  if (height <= 0) return null;
  return (
    <TableRow aria-hidden data-testid={`rows-spacer-${position}`} sx={{ height }}>
      <TableCell colSpan={colSpan} sx={{ p: 0, border: 0 }} />
    </TableRow>
  );
}

/**
 * Renders only the rows of a long table body that are on screen (plus a few either side), with spacer rows keeping
 * the scroll height, so a page of hundreds of rows with chips, menus and tooltips stays responsive. The page itself
 * scrolls (our tables have no inner scroll area), so the window follows the document's scroll position. Row heights
 * vary slightly (chips, wrapped text): the average of the rows on screen is used for the spacers.
 */
export function useWindowedRows<Item>(all: Item[], colSpan: number): WindowedRows<Item> {
  const [body, setBody] = useState<HTMLTableSectionElement | null>(null);
  const rowHeight = useRef(ESTIMATED_ROW_HEIGHT);
  const windowed = all.length >= WINDOW_FROM;
  const [range, setRange] = useState({ start: 0, end: Math.min(all.length, 30) });

  const update = useCallback(() => {
    if (!body || !windowed) return;
    const top = body.getBoundingClientRect().top;
    const height = rowHeight.current;
    const start = Math.max(0, Math.floor(-top / height) - OVERSCAN);
    const end = Math.min(all.length, Math.ceil((window.innerHeight - top) / height) + OVERSCAN);
    setRange((previous) => (previous.start === start && previous.end === end ? previous : { start, end: Math.max(start, end) }));
  }, [body, windowed, all.length]);

  useEffect(() => {
    if (!windowed) return;
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [update, windowed]);

  // After each render, learn the real row height from the rows on screen, and correct the slice if it changed.
  useLayoutEffect(() => {
    if (!body || !windowed) return;
    const rendered = [...body.rows].filter((row) => !row.dataset.testid?.startsWith('rows-spacer-'));
    if (rendered.length === 0) return;
    const measured = rendered.reduce((sum, row) => sum + row.getBoundingClientRect().height, 0) / (range.end - range.start || 1);
    if (measured > 0 && Math.abs(measured - rowHeight.current) > 1) {
      rowHeight.current = measured;
      update();
    }
  });

  if (!windowed) return { bodyRef: setBody, items: all, offset: 0, spacerBefore: null, spacerAfter: null };
  const start = Math.min(range.start, all.length);
  const end = Math.min(Math.max(range.end, start), all.length);
  return {
    bodyRef: setBody,
    items: all.slice(start, end),
    offset: start,
    spacerBefore: spacer(start * rowHeight.current, colSpan, 'before'),
    spacerAfter: spacer((all.length - end) * rowHeight.current, colSpan, 'after'),
  };
}
