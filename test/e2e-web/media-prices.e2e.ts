import type { Browser } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage } from './operations-helpers';

const VARIANTS = [
  { language: 'zh', width: 1280, image: '图片 1024x1024 · hd：$0.08 / 张', call: '$0.3 / 次', billing: '按单位计费' },
  { language: 'en', width: 390, image: 'Image 1024x1024 · hd: $0.08 / image', call: '$0.3 / call', billing: 'Per unit' },
] as const;

describe('media prices on the public pricing page (issue 33 part 3)', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    const session = await startConsole();
    ({ server, browser } = session);
    const { watched } = session;
    for (const [key, value] of [
      ['fetch_setting.allow_private_ip', 'true'],
      ['ImagePrices', JSON.stringify({ 'dall-e-3': { '1024x1024': { hd: 0.08 } } })],
      ['TaskActionPrices', JSON.stringify({ midjourney: { IMAGINE: 0.3 } })],
    ]) {
      expect((await apiFromPage(watched.page, 'PUT', '/api/option/', { key, value })).success).toBe(true);
    }
    // Channels are only listed, never called.
    const created = await apiFromPage(watched.page, 'POST', '/api/channel/', { name: 'media', type: 1, key: 'sk-media', base_url: 'http://127.0.0.1:18080', models: 'dall-e-3,mj_imagine', group: 'default' });
    expect(created.success).toBe(true);
    await watched.close();
  });
  afterAll(async () => {
    await closeSession({ browser, server });
  });

  test.each(VARIANTS)('$language at $width px: an image price by size and quality, and a task action per call', async ({ language, width, image, call, billing }) => {
    const watched = await WatchedPage.open(browser, server.baseUrl, width, language);
    await watched.goto('/pricing');
    const { page } = watched;
    await page.getByTestId('pricing-media-dall-e-3').waitFor();
    expect(await page.getByTestId('pricing-media-dall-e-3').innerText()).toContain(image);
    expect(await page.getByTestId('pricing-media-mj_imagine').innerText()).toContain(call);
    expect(await page.getByTestId('pricing-row-dall-e-3').innerText()).toContain(billing);
    await watched.screenshot(`media-prices-${language}`);
    watched.expectNoConsoleErrors();
    await watched.close();
  });
});
