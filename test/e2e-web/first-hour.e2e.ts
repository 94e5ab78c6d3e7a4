import { createServer } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { MockOpenAi } from './mock-openai';
import { apiFromPage, chatThroughGateway, expectToast, rowId } from './operations-helpers';

/**
 * What a new operator's first hour turned up: the usage log's top-up, admin and system rows said
 * nothing until expanded (their text is in the details column, hidden by default), and then showed
 * a "charge" of model ratio 0; the balance on the
 * personal page was cut to "$20…" on a phone; the table pager was labelled in English.
 */
describe('first hour: what a new operator reads', () => {
  let server: TestServer;
  let mock: MockOpenAi;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;

  beforeAll(async () => {
    mock = await new MockOpenAi().start();
    ({ server, browser, watched } = await startConsole());
    page = watched.page;
    // One consumption row beside the system row of the root's initial quota.
    expect((await apiFromPage(page, 'PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' })).success).toBe(true);
    expect((await apiFromPage(page, 'POST', '/api/channel/', { name: 'mock', type: 1, key: 'sk-mock', base_url: mock.url, models: 'gpt-4o-mini', group: 'default' })).success).toBe(true);
    const token = await apiFromPage<{ key: string }[]>(page, 'POST', '/api/token/', { name: 'first', remain_quota: 5_000_000 });
    expect(await chatThroughGateway(server.baseUrl, token.data[0].key)).toBe(200);
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
    await mock?.stop();
  });

  test('the usage log says what every row is without expanding it, and a system row is not a charge', async () => {
    // The consumption row is written off the request path; the page is reloaded until it is there.
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await watched.goto('/log');
      if ((await page.locator('tr[data-testid^="log-row-"]').count()) >= 2) break;
      await page.waitForTimeout(250);
    }
    const systemRow = await rowId(page, 'log-row-', '超级管理员初始额度');
    const consumeRow = await rowId(page, 'log-row-', 'gpt-4o-mini');
    // The row of a balance movement without a charge shows its text where a charge's model, timing and cost would be.
    expect(await page.getByTestId(`log-content-${systemRow}`).innerText()).toBe('超级管理员初始额度 100000000');
    expect(await page.getByTestId(`log-content-${consumeRow}`).count()).toBe(0);

    await page.getByTestId(`log-expand-${systemRow}`).click();
    const detail = page.getByTestId(`log-detail-${systemRow}`);
    expect(await page.getByTestId(`log-amount-${systemRow}`).innerText()).toBe('$200.00 (100000000)');
    expect(await detail.getByText('模型倍率').count()).toBe(0);
    expect(await detail.getByText('扣除额度').count()).toBe(0);

    await page.getByTestId(`log-expand-${consumeRow}`).click();
    await page.getByTestId(`log-formula-${consumeRow}`).waitFor();
    await page.getByTestId(`log-detail-${consumeRow}`).getByText(/^模型倍率 [\d.]+，补全倍率 [\d.]+，分组倍率 1$/).waitFor();

    const pager = page.getByTestId('table-pagination');
    await pager.getByRole('button', { name: '下一页' }).waitFor();
    await pager.getByRole('button', { name: '上一页' }).waitFor();
    await watched.screenshot('first-hour-log');
  });

  test('the dashboard query button keeps its label on one line beside the filters', async () => {
    expect((await apiFromPage(page, 'PUT', '/api/option/', { key: 'DataExportEnabled', value: 'true' })).success).toBe(true);
    await watched.goto('/detail');
    const query = page.getByTestId('detail-query');
    const box = (await query.boundingBox())!;
    // One line of text in a medium button is about 36 px high; the squeezed button stacked "查" over "询".
    expect(box.height).toBeLessThan(45);
    expect(box.width).toBeGreaterThan(box.height);
  });

  test('a failed channel test names the channel, as a passed one does', async () => {
    // A loopback port nobody listens on: the test cannot connect.
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const created = await apiFromPage<{ id: number }[]>(page, 'POST', '/api/channel/', { name: 'dead', type: 1, key: 'sk-dead', base_url: `http://127.0.0.1:${closedPort}`, models: 'gpt-4o-mini', group: 'default' });
    expect(created.success).toBe(true);
    await watched.goto('/channel');
    await page.getByTestId(`channel-test-${created.data[0].id}`).click();
    await expectToast(page, 'error', /^渠道 dead 测试失败：/);

    // Editing it: the key field is empty (keys are never sent back), and says so without being focused.
    await page.getByTestId(`channel-edit-${created.data[0].id}`).click();
    const editor = page.getByTestId('channel-editor');
    const key = editor.getByTestId('channel-key');
    expect(await key.inputValue()).toBe('');
    expect(await key.getAttribute('placeholder')).toBe('留空则保持原密钥不变');
    expect(await editor.locator('label').filter({ hasText: /^密钥$/ }).getAttribute('data-shrink')).toBe('true');
    await editor.getByRole('button', { name: '取消' }).click();
  });

  test('the pricing page says which models have no price instead of quoting the fallback as their price', async () => {
    const created = await apiFromPage(page, 'POST', '/api/channel/', { name: 'unpriced', type: 1, key: 'sk-x', base_url: mock.url, models: 'first-hour-unpriced', group: 'default' });
    expect(created.success).toBe(true);
    await watched.goto('/pricing');
    await page.getByTestId('pricing-unset-first-hour-unpriced').getByText('未设置价格：仅在允许时按以下价格计费').waitFor();
    await page.getByTestId('pricing-price-gpt-4o-mini').waitFor();
    expect(await page.getByTestId('pricing-unset-gpt-4o-mini').count()).toBe(0);
  });

  test('on a phone the personal page shows the whole balance', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await watched.goto('/personal');
    const balance = page.getByTestId('balance-quota');
    expect(await balance.innerText()).toMatch(/^\$\d+\.\d\d$/);
    expect(await balance.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 860 });
  });
});
