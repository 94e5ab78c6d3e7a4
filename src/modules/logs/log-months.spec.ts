import { addMonths, monthPartitionName, monthsFromTo, monthStart, mysqlMonthPartitions, postgresMonthPartition } from './log-months';

const utc = (text: string) => Date.parse(`${text}Z`) / 1000;

describe('log partition months (UTC)', () => {
  it('finds a month start and steps across year ends, forwards and back', () => {
    expect(monthStart(utc('2026-11-27T04:36:32'))).toBe(utc('2026-11-01T00:00:00'));
    expect(monthStart(utc('2026-12-01T00:00:00'))).toBe(utc('2026-12-01T00:00:00'));
    expect(monthStart(utc('2026-11-30T23:59:59'))).toBe(utc('2026-11-01T00:00:00'));
    expect(addMonths(utc('2026-11-27T04:36:32'), 2)).toBe(utc('2027-01-01T00:00:00'));
    expect(addMonths(utc('2026-01-31T12:00:00'), -1)).toBe(utc('2025-12-01T00:00:00'));
  });

  it('lists every month from one time to another, both included', () => {
    expect(monthsFromTo(utc('2026-10-15T00:00:00'), utc('2027-01-01T00:00:00')).map(monthPartitionName)).toEqual(['p202610', 'p202611', 'p202612', 'p202701']);
    expect(monthsFromTo(utc('2026-10-15T00:00:00'), utc('2026-09-01T00:00:00'))).toEqual([]);
  });

  it('writes each month as MySQL and PostgreSQL declare it', () => {
    const november = utc('2026-11-01T00:00:00');
    const december = utc('2026-12-01T00:00:00');
    expect(mysqlMonthPartitions([november])).toEqual([`PARTITION p202611 VALUES LESS THAN (${december})`]);
    expect(postgresMonthPartition(november)).toBe(`CREATE TABLE logs_p202611 PARTITION OF logs FOR VALUES FROM (${november}) TO (${december})`);
  });
});
