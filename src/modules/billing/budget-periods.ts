import { BUDGET_PERIODS, type BudgetPeriod, type BudgetWindow } from './budget.wire';

const FIVE_HOURS_S = 5 * 3600;

/** The window in seconds: [start, end). */
export interface WindowSpan {
  start: number;
  end: number;
}

/**
 * The budget windows stored as JSON text (tokens.budget_windows, users.budget_windows), or
 * null when none are set. Malformed text reads as none: writes are validated, so only a hand
 * edit of the database gets here.
 */
export function parseBudgetWindows(text: string | null | undefined): BudgetWindow[] | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    const windows = normaliseBudgetWindows(parsed);
    return windows && windows.length > 0 ? windows : null;
  } catch {
    return null;
  }
}

/**
 * Checks windows sent by a client: a list of `{period, quota}` with a known period, a
 * non-negative integer quota and no period twice. Answers them sorted by period, or null when
 * the value is not such a list.
 */
export function normaliseBudgetWindows(value: unknown): BudgetWindow[] | null {
  if (!Array.isArray(value)) return null;
  const seen = new Set<BudgetPeriod>();
  const windows: BudgetWindow[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) return null;
    const { period, quota } = entry as { period?: unknown; quota?: unknown };
    if (!BUDGET_PERIODS.includes(period as BudgetPeriod) || seen.has(period as BudgetPeriod)) return null;
    if (!Number.isSafeInteger(quota) || (quota as number) < 0) return null;
    seen.add(period as BudgetPeriod);
    windows.push({ period: period as BudgetPeriod, quota: quota as number });
  }
  return windows.sort((a, b) => BUDGET_PERIODS.indexOf(a.period) - BUDGET_PERIODS.indexOf(b.period));
}

/** The stored text of windows (null when there are none). */
export function budgetWindowsText(windows: BudgetWindow[] | null): string | null {
  return windows && windows.length > 0 ? JSON.stringify(windows) : null;
}

/**
 * The window a call at `nowS` opens: for `5h` five hours from now; for the calendar periods
 * the day, the week (from Monday) or the month containing now, in `timeZone` (an IANA name;
 * an unknown one counts as UTC).
 */
export function windowFor(period: BudgetPeriod, nowS: number, timeZone: string): WindowSpan {
  if (period === '5h') return { start: nowS, end: nowS + FIVE_HOURS_S };
  const local = localParts(nowS, timeZone);
  let startDay = { year: local.year, month: local.month, day: local.day };
  let endDay: { year: number; month: number; day: number };
  if (period === 'day') {
    endDay = addDays(startDay, 1);
  } else if (period === 'week') {
    // getUTCDay: 0 Sunday … 6 Saturday; weeks start on Monday.
    const weekday = new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
    startDay = addDays(startDay, -((weekday + 6) % 7));
    endDay = addDays(startDay, 7);
  } else {
    startDay = { year: local.year, month: local.month, day: 1 };
    endDay = local.month === 12 ? { year: local.year + 1, month: 1, day: 1 } : { year: local.year, month: local.month + 1, day: 1 };
  }
  return { start: localMidnight(startDay, timeZone), end: localMidnight(endDay, timeZone) };
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      formatter = formatterFor('UTC');
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock date and time at `nowS` in the zone. */
function localParts(nowS: number, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(nowS * 1000))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute, second: parts.second };
}

/** How far the zone's wall clock is ahead of UTC at `atS`, in seconds. */
function zoneOffset(atS: number, timeZone: string): number {
  const local = localParts(atS, timeZone);
  return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second) / 1000 - atS;
}

/** The instant of local midnight starting `day` in the zone (its offset looked up twice, for a DST change that day). */
function localMidnight(day: { year: number; month: number; day: number }, timeZone: string): number {
  const wall = Date.UTC(day.year, day.month - 1, day.day) / 1000;
  const guess = wall - zoneOffset(wall, timeZone);
  return wall - zoneOffset(guess, timeZone);
}

function addDays(day: { year: number; month: number; day: number }, days: number): { year: number; month: number; day: number } {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}
