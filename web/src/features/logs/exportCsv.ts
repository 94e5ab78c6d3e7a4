import type { i18n as I18n } from 'i18next';
import { formatDateTime, formatTimestamp } from '../../lib/time';
import { isBillable, LOG_TYPES, logsApi, parseOther, type LogEntry, type LogFilters } from './api';
import { logRowText } from './logText';

const EXPORT_PAGE_SIZE = 100;
/** As many rows as the list counts exactly (the server's count cap); a larger export is a job for the database. */
export const EXPORT_ROW_LIMIT = 10_000;

export interface ExportedRows {
  rows: LogEntry[];
  /** More rows matched than the file holds. */
  capped: boolean;
}

/**
 * The rows of the applied filters, newest first, page by page through the list endpoint the table uses. The
 * window ends now, so rows written while the export runs cannot shift the pages under it.
 */
export async function fetchRowsForExport(filters: LogFilters, admin: boolean): Promise<ExportedRows | null> {
  const now = Math.floor(Date.now() / 1000);
  const pinned = { ...filters, end_timestamp: filters.end_timestamp ? Math.min(filters.end_timestamp, now) : now };
  const rows: LogEntry[] = [];
  const seen = new Set<number>();
  for (let page = 1; rows.length < EXPORT_ROW_LIMIT; page++) {
    const result = await logsApi.list(pinned, admin, page, EXPORT_PAGE_SIZE);
    if (!result.ok) return null;
    const items = result.data.items ?? [];
    // Rows of one second may swap places between pages; each goes in once.
    for (const item of items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      rows.push(item);
    }
    if (items.length < EXPORT_PAGE_SIZE) return { rows, capped: false };
  }
  return { rows: rows.slice(0, EXPORT_ROW_LIMIT), capped: true };
}

interface CsvColumn {
  header: string;
  value: (log: LogEntry) => string | number;
  adminOnly?: boolean;
}

/** One CSV field: quoted when it must be, and a text a spreadsheet would run as a formula is kept as text. */
function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The rows as CSV in the exporter's language: the headers, the type names and each row's text (see logRowText)
 * come from the console's translations, like the table. Admins get the channel and user columns too.
 */
export function logsCsv(rows: readonly LogEntry[], admin: boolean, i18n: I18n): string {
  const t = i18n.t.bind(i18n);
  const allColumns: CsvColumn[] = [
    { header: t('logs:csv.id'), value: (log) => log.id },
    { header: t('logs:columns.time'), value: (log) => formatTimestamp(log.created_at) },
    { header: t('logs:columns.type'), value: (log) => t(`logs:types.${(LOG_TYPES as readonly number[]).includes(log.type) ? log.type : 0}`) },
    { header: t('logs:columns.user'), value: (log) => log.username, adminOnly: true },
    { header: t('logs:columns.token'), value: (log) => log.token_name },
    { header: t('logs:columns.group'), value: (log) => log.group },
    { header: t('logs:columns.model'), value: (log) => log.model_name },
    { header: t('logs:columns.channel'), value: (log) => log.channel || '', adminOnly: true },
    { header: t('logs:csv.useTime'), value: (log) => (isBillable(log) ? log.use_time : '') },
    { header: t('logs:csv.stream'), value: (log) => (isBillable(log) ? (log.is_stream ? t('logs:stream') : t('logs:nonStream')) : '') },
    { header: t('logs:columns.prompt'), value: (log) => log.prompt_tokens },
    { header: t('logs:columns.completion'), value: (log) => log.completion_tokens },
    { header: t('logs:csv.quota'), value: (log) => log.quota },
    { header: t('logs:columns.details'), value: (log) => logRowText(log, parseOther(log.other), i18n) },
  ];
  const columns = allColumns.filter((column) => admin || !column.adminOnly);
  const lines = [columns.map((column) => csvField(column.header)).join(',')];
  for (const log of rows) lines.push(columns.map((column) => csvField(column.value(log))).join(','));
  // The byte-order mark tells spreadsheets the file is UTF-8 (Chinese text otherwise opens garbled).
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Hands the text to the browser as a file download. */
export function downloadCsv(text: string): void {
  const stamp = formatDateTime(new Date()).replace(/[-: ]/g, '');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `usage-log-${stamp}.csv`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // After the click has handed the file over; revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
