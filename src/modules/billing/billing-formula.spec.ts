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
