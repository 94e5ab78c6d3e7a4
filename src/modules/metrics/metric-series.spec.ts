import { CounterSeries, HistogramSeries, seriesKey } from './metric-series';

describe('metric series', () => {
  it('counts per label set, keeping the label values apart', () => {
    const series = new CounterSeries(['model', 'kind']);
    series.add(seriesKey('gpt-4o', 'prompt'), 12);
    series.add(seriesKey('gpt-4o', 'prompt'), 3);
    series.add(seriesKey('other', 'completion'));
    expect([...series.entries()]).toEqual([
      { labels: ['gpt-4o', 'prompt'], value: 15 },
      { labels: ['other', 'completion'], value: 1 },
    ]);
  });

  it('puts an observation in the first bucket whose bound it does not pass, and past the last in +Inf', () => {
    const series = new HistogramSeries(['inbound'], [0.1, 1, 10]);
    for (const value of [0.05, 0.1, 0.5, 1, 10, 11]) series.observe(seriesKey('openai'), value);
    const [entry] = [...series.entries()];
    expect([...entry.counts]).toEqual([2, 2, 1, 1]);
    expect(entry.count).toBe(6);
    expect(entry.sum).toBeCloseTo(22.65);
  });
});
