import { normaliseBudgetWindows, windowFor } from './budget-periods';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('budget periods', () => {
  it('puts day, week and month windows at local midnights of the zone', () => {
    const now = at('2026-03-10T15:50:00Z'); // Tuesday 23:50 in Shanghai
    expect(windowFor('day', now, 'Asia/Shanghai')).toEqual({ start: at('2026-03-09T16:00:00Z'), end: at('2026-03-10T16:00:00Z') });
    expect(windowFor('week', now, 'Asia/Shanghai')).toEqual({ start: at('2026-03-08T16:00:00Z'), end: at('2026-03-15T16:00:00Z') });
    expect(windowFor('month', now, 'UTC')).toEqual({ start: at('2026-03-01T00:00:00Z'), end: at('2026-04-01T00:00:00Z') });
    expect(windowFor('month', at('2026-12-31T23:00:00Z'), 'UTC')).toEqual({ start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
  });

  it('keeps a day across a daylight-saving change as long as the wall clock says', () => {
    // New York springs forward on 2026-03-08: that day has 23 hours.
    const span = windowFor('day', at('2026-03-08T12:00:00Z'), 'America/New_York');
    expect(span).toEqual({ start: at('2026-03-08T05:00:00Z'), end: at('2026-03-09T04:00:00Z') });
  });

  it('starts a week on Monday, also when today is Sunday or Monday', () => {
    expect(windowFor('week', at('2026-05-10T12:00:00Z'), 'UTC').start).toBe(at('2026-05-04T00:00:00Z'));
    expect(windowFor('week', at('2026-05-11T00:00:00Z'), 'UTC').start).toBe(at('2026-05-11T00:00:00Z'));
  });

  it('rolls 5h from now, and reads an unknown zone as UTC', () => {
    expect(windowFor('5h', 1000, 'UTC')).toEqual({ start: 1000, end: 1000 + 18_000 });
    expect(windowFor('day', at('2026-01-02T03:00:00Z'), 'Not/AZone')).toEqual({ start: at('2026-01-02T00:00:00Z'), end: at('2026-01-03T00:00:00Z') });
  });

  it('accepts each period once with a whole quota, sorted', () => {
    expect(normaliseBudgetWindows([{ period: 'month', quota: 5 }, { period: '5h', quota: 1 }])).toEqual([{ period: '5h', quota: 1 }, { period: 'month', quota: 5 }]);
    expect(normaliseBudgetWindows([{ period: 'day', quota: 1.5 }])).toBeNull();
    expect(normaliseBudgetWindows([{ period: 'day', quota: 1 }, { period: 'day', quota: 1 }])).toBeNull();
    expect(normaliseBudgetWindows({ period: 'day', quota: 1 })).toBeNull();
  });
});
