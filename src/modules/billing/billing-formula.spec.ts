import { preConsumeQuotaFor, PriceSheet, settleQuota } from './billing-formula';

const sheet: PriceSheet = { quotaType: 0, modelRatio: 1.5, completionRatio: 4, cacheRatio: 1, modelPrice: 0, groupRatio: 2, quotaPerUnit: 500_000 };

describe('hold sizing', () => {
  it('holds the upper bound of the cost when the request states max tokens, pricing them as completion', () => {
    // (10 + 100 × 4) × 1.5 × 2 = 1230
    expect(preConsumeQuotaFor(sheet, 10, 100, 500)).toBe(1230);
    // The answer used in full costs exactly the hold: no request with a limit can overdraw.
    expect(settleQuota(sheet, { promptTokens: 10, completionTokens: 100, cachedTokens: 0 })).toBe(1230);
  });

  it('holds PreConsumedQuota tokens (or the prompt estimate, if larger) only when no limit is given', () => {
    expect(preConsumeQuotaFor(sheet, 10, 0, 500)).toBe(1500);
    expect(preConsumeQuotaFor(sheet, 900, 0, 500)).toBe(2700);
  });

  it('rounds a fractional bound up and holds a per-call price as it is', () => {
    expect(preConsumeQuotaFor({ ...sheet, modelRatio: 0.001, groupRatio: 1 }, 1, 1, 0)).toBe(1);
    expect(preConsumeQuotaFor({ ...sheet, quotaType: 1, modelPrice: 0.02 }, 10, 100, 500)).toBe(20_000);
  });
});

describe('Realtime audio', () => {
  const realtime: PriceSheet = { ...sheet, modelRatio: 2.5, groupRatio: 1, audioRatio: 8, audioCompletionRatio: 2 };
  const usage = { promptTokens: 100, completionTokens: 50, cachedTokens: 0, audioInputTokens: 60, audioOutputTokens: 40 };

  it('bills audio tokens at the audio ratios and the rest as text', () => {
    // (40 + 10 × 4 + 60 × 8 + 40 × 8 × 2) × 2.5 = 3000
    expect(settleQuota(realtime, usage)).toBe(3000);
  });

  it('bills audio counts as text when the sheet has no audio ratios (HTTP calls)', () => {
    // (100 + 50 × 4) × 2.5 = 750
    expect(settleQuota({ ...realtime, audioRatio: undefined, audioCompletionRatio: undefined }, usage)).toBe(750);
  });

  it('prices audio output at the completion ratio when no audio completion ratio is set', () => {
    // (40 + 10 × 4 + 60 × 8 + 40 × 8 × 4) × 2.5 = 4600
    expect(settleQuota({ ...realtime, audioCompletionRatio: undefined }, usage)).toBe(4600);
  });
});
