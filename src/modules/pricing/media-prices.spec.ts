import { audioPricesProblem, imagePricesProblem, imageUnitPrice, mediaPricesOf, taskActionPricesProblem, videoPricesProblem } from './media-prices';

describe('media price tables', () => {
  it('accepts well-formed tables and names where a malformed one breaks', () => {
    expect(imagePricesProblem({ 'dall-e-3': { '1024x1024': { standard: 0.04, hd: 0.08 } }, 'dall-e-2': { '512x512': 0.018, '*': 0.02 } })).toBeUndefined();
    expect(imagePricesProblem({ 'dall-e-3': { '1024x1024': { hd: 'x' } } })).toBe('dall-e-3 → 1024x1024 → hd');
    expect(imagePricesProblem({ 'dall-e-3': 1 })).toBe('dall-e-3');
    expect(imagePricesProblem([])).toBe('(top level)');
    expect(audioPricesProblem({ 'tts-1': { output: 0.01 }, 'whisper-1': { input: 0.0001, output: 0 } })).toBeUndefined();
    expect(audioPricesProblem({ 'tts-1': {} })).toBe('tts-1');
    expect(audioPricesProblem({ 'tts-1': { seconds: 1 } })).toBe('tts-1 → seconds');
    expect(videoPricesProblem({ sora: { '720p': 0.1, '*': 0.2 } })).toBeUndefined();
    expect(videoPricesProblem({ sora: { '720p': Infinity } })).toBe('sora → 720p');
    expect(taskActionPricesProblem({ midjourney: { IMAGINE: 0.1, SWAP_FACE: 0.05 }, suno: { MUSIC: 0.1 } })).toBeUndefined();
    expect(taskActionPricesProblem({ suno: { VIDEO: 0.1 } })).toBe('suno → VIDEO');
    expect(taskActionPricesProblem({ kling: { VIDEO: 0.1 } })).toBe('kling');
  });

  it('prices an image by exact size and quality, else by "*"', () => {
    const sizes = { '1024x1024': { standard: 0.04, hd: 0.08, '*': 0.05 }, '512x512': 0.02, '*': { hd: 0.2 } };
    expect(imageUnitPrice(sizes, '1024x1024', 'hd')).toBe(0.08);
    expect(imageUnitPrice(sizes, '1024x1024', undefined)).toBe(0.05);
    expect(imageUnitPrice(sizes, '512x512', 'hd')).toBe(0.02);
    expect(imageUnitPrice(sizes, '256x256', 'hd')).toBe(0.2);
    expect(imageUnitPrice(sizes, undefined, 'standard')).toBeUndefined();
  });

  it("finds a task action's price by the model it is served under", () => {
    const tables = { ImagePrices: {}, AudioPrices: {}, VideoPrices: {}, TaskActionPrices: { midjourney: { SWAP_FACE: 0.07, HIGH_VARIATION: 0.2 }, suno: { LYRICS: 0.01 } } };
    expect(mediaPricesOf('swap_face', tables)).toEqual({ call: 0.07 });
    expect(mediaPricesOf('mj_high_variation', tables)).toEqual({ call: 0.2 });
    expect(mediaPricesOf('suno_lyrics', tables)).toEqual({ call: 0.01 });
    expect(mediaPricesOf('mj_imagine', tables)).toBeUndefined();
  });
});
