import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage, expectToast } from './operations-helpers';

/** A published price list (the README's schema) on loopback; the gateway fetches it, not the browser. */
async function startPriceList(): Promise<{ url: string; close: () => Promise<void> }> {
  const list = {
    currency: 'USD',
    models: [
      { model: 'e2e-sync-chat', input: 3, output: 15 },
      { model: 'e2e-sync-new', input: 1 },
      { model: 'e2e-sync-image', per_request: 0.04 },
      { model: 'e2e-sync-tts', per_unit: { price: 15, unit: '1M characters' } },
    ],
  };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(list));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/prices.json`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function optionMap(watched: WatchedPage, key: string): Promise<Record<string, number>> {
  const options = await apiFromPage<{ key: string; value: string }[]>(watched.page, 'GET', '/api/option/');
  return JSON.parse(options.data.find((option) => option.key === key)!.value) as Record<string, number>;
}

async function openSync(watched: WatchedPage) {
  await watched.goto('/setting?tab=operation');
  const tab = watched.page.getByTestId('pricing-tab-sync');
  await tab.scrollIntoViewIfNeeded();
  await tab.click();
  await watched.page.getByTestId('ratio-sync').waitFor();
}

/** Row models in the diff table, in order. */
async function shownModels(watched: WatchedPage): Promise<string[]> {
  const ids = await watched.page.locator('tr[data-testid^="ratio-sync-row-"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid') ?? ''));
  return ids.map((id) => id.slice('ratio-sync-row-'.length));
}

describe('settings: ratio sync sub-tab (/setting, pricing)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let priceList: Awaited<ReturnType<typeof startPriceList>>;

  beforeAll(async () => {
    priceList = await startPriceList();
    ({ server, browser, watched } = await startConsole());
    // The price list is on loopback: root allows private addresses, as for a LAN source.
    for (const [key, value] of [
      ['fetch_setting.allow_private_ip', 'true'],
      ['ModelRatio', JSON.stringify({ 'e2e-sync-chat': 1 })],
      ['ModelPrice', '{}'],
      ['CompletionRatio', '{}'],
    ]) {
      expect((await apiFromPage(watched.page, 'PUT', '/api/option/', { key, value })).success).toBe(true);
    }
    const channel = await apiFromPage(watched.page, 'POST', '/api/channel/', { name: 'e2e-sync', type: 1, key: 'sk-e2e', models: 'e2e-sync-chat', group: 'default' });
    expect(channel.success).toBe(true);
  });
  afterAll(async () => {
    await priceList?.close();
    await closeSession({ watched, browser, server });
  });

  test('zh, desktop: add a source, compare, filter, and apply only the ticked models', async () => {
    const { page } = watched;
    await openSync(watched);
    const sources = page.getByTestId('ratio-sync-sources');
    await page.getByTestId('ratio-sync-source-add').click();
    await sources.getByText('请输入名称').waitFor();
    await page.getByTestId('ratio-sync-source-name').fill('官方价格表');
    await sources.getByRole('combobox').click();
    await page.getByRole('option', { name: '价格表（JSON，美元 / 百万 tokens）' }).click();
    await page.getByTestId('ratio-sync-source-url').fill('ftp://nowhere');
    await page.getByTestId('ratio-sync-source-add').click();
    await sources.getByText('请输入 http(s) 地址').waitFor();
    await page.getByTestId('ratio-sync-source-url').fill(priceList.url);
    await page.getByTestId('ratio-sync-source-add').click();
    await expectToast(page, 'success', '同步来源已保存');
    await page.getByTestId('ratio-sync-source-官方价格表').waitFor();

    await page.getByTestId('ratio-sync-fetch').click();
    await page.getByTestId('ratio-sync-summary').filter({ hasText: '官方价格表（价格表）：3 个有价格的模型' }).waitFor();
    await page.getByTestId('ratio-sync-skipped').filter({ hasText: 'e2e-sync-tts (按单位计价)' }).waitFor();
    expect(await shownModels(watched)).toEqual(['e2e-sync-chat', 'e2e-sync-image', 'e2e-sync-new']);
    // The money → ratio rule of the table editor: 3 and 15 per 1M tokens are ratio 1.5 and completion 5.
    const chat = page.getByTestId('ratio-sync-row-e2e-sync-chat');
    await chat.getByText('1 → 1.5').waitFor();
    await chat.getByText('- → 5').waitFor();
    await chat.getByText('有变化').waitFor();

    await page.getByTestId('ratio-sync-filter-onlyNew').click();
    expect(await shownModels(watched)).toEqual(['e2e-sync-image', 'e2e-sync-new']);
    await page.getByTestId('ratio-sync-filter-onlyNew').click();
    await page.getByTestId('ratio-sync-filter-onlyServed').click();
    expect(await shownModels(watched)).toEqual(['e2e-sync-chat']);
    await page.getByTestId('ratio-sync-filter-onlyServed').click();

    await page.getByTestId('ratio-sync-select-e2e-sync-chat').click();
    await page.getByTestId('ratio-sync-select-e2e-sync-new').click();
    await watched.screenshot('settings-ratio-sync');
    await page.getByTestId('ratio-sync-apply').click();
    await page.getByRole('dialog').getByText('确定应用 2 个模型的价格？').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '应用' }).click();
    await expectToast(page, 'success', '已应用 2 个模型的价格');

    expect(await optionMap(watched, 'ModelRatio')).toEqual({ 'e2e-sync-chat': 1.5, 'e2e-sync-new': 0.5 });
    expect(await optionMap(watched, 'CompletionRatio')).toEqual({ 'e2e-sync-chat': 5 });
    // Not ticked, not applied.
    expect(await optionMap(watched, 'ModelPrice')).toEqual({});
    // The refreshed diff: what was applied is the same now and drops out under "only changed".
    await page.getByTestId('ratio-sync-row-e2e-sync-chat').waitFor({ state: 'detached' });
    expect(await shownModels(watched)).toEqual(['e2e-sync-image']);
  });

  test('en, phone: the same sub-tab reads in English and fits a 390 px screen', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await openSync(watched);
      await page.getByTestId('ratio-sync-source-官方价格表').getByText('Price list (JSON, USD per 1M tokens)').waitFor();
      await page.getByTestId('ratio-sync-fetch').click();
      await page.getByTestId('ratio-sync-summary').filter({ hasText: '官方价格表 (price list): 3 priced models, 1 shown.' }).waitFor();
      await page.getByTestId('ratio-sync-filter-onlyChanged').click();
      expect(await shownModels(watched)).toEqual(['e2e-sync-chat', 'e2e-sync-image', 'e2e-sync-new']);
      await page.getByTestId('ratio-sync-row-e2e-sync-chat').getByText('Same').waitFor();
      await expect(page.getByTestId('ratio-sync-select-e2e-sync-chat').locator('input').isDisabled()).resolves.toBe(true);
      // The page itself does not scroll sideways; the wide table scrolls inside its container.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.getByTestId('ratio-sync-select-e2e-sync-image').click();
      await page.getByTestId('ratio-sync-apply').filter({ hasText: 'Apply (1 selected)' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
      await expectToast(page, 'success', 'Prices of 1 models applied');
      expect(await optionMap(watched, 'ModelPrice')).toEqual({ 'e2e-sync-image': 0.04 });
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
    }
  });
});
