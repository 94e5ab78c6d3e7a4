/**
 * Money ↔ ratio, the one rule: the console's pricing editor imports this file (web/tsconfig.json
 * `@shared/price-conversion`) and ratio sync converts published price lists with it, so a price
 * typed by hand and the same price synced end as the same ratios. Prices are USD per million tokens.
 * Imports nothing, so the console's program never pulls in server code.
 */

/** Rounds away float noise (0.1 * 3) without hiding a real sixth decimal. */
function tidy(value: number): number {
  return Number(value.toPrecision(12));
}

/** Input price in USD per million tokens → model ratio (ratio = price / 2). */
export const ratioFromInputPrice = (inputPrice: number): number => tidy(inputPrice / 2);
/** Model ratio → input price in USD per million tokens. */
export const inputPriceFromRatio = (ratio: number): number => tidy(ratio * 2);
/**
 * Another per-token price as a multiple of the input price: the completion ratio (output price),
 * the cache ratio (cache reads) and the cache-creation ratio (cache writes). Undefined when there
 * is no input price to divide by.
 */
export const multipleOfInputPrice = (inputPrice: number, price: number): number | undefined => (inputPrice > 0 ? tidy(price / inputPrice) : undefined);
/** Output price / input price, or undefined when there is no input price to divide by. */
export const completionRatioFromPrices = multipleOfInputPrice;
/** Output price in USD per million tokens from the input price and the completion ratio. */
export const outputPriceFromRatios = (ratio: number, completionRatio: number): number => tidy(ratio * 2 * completionRatio);
