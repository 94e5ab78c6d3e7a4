import type { Browser } from 'playwright-core';
import { closeSession, ROOT_USER, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage } from './operations-helpers';
import { openScratchDb } from './scratch-db';

const HOUR = 3600;

/** The data dashboard: charts over aggregated usage, for the admin and in both languages, desktop and phone. */
describe('/detail data dashboard', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole());
    const enabled = await apiFromPage(watched.page, 'PUT', '/api/option/', { key: 'DataExportEnabled', value: 'true' });
    expect(enabled.success).toBe(true);

    // Aggregated usage of the last few hours (the aggregation itself is tested over HTTP in test/usage-data.test.ts).
    const db = openScratchDb(server.dbPath);
    const hour = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
    const insert = (table: string) => db.prepare(`INSERT INTO ${table} (user_id, username, model_name, created_at, token_used, count, quota) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    const hourly = insert('quota_data');
    // Root's own buckets, and the all-users buckets (user id 0) the aggregator writes beside them.
    for (const [userId, username] of [[1, ROOT_USER.username], [0, '']] as const) {
      for (let back = 0; back < 5; back++) {
        hourly.run(userId, username, 'gpt-4o-mini', hour - back * HOUR, 1200 * (back + 1), 3, 150_000);
        hourly.run(userId, username, 'claude-3-haiku', hour - back * HOUR, 800, 1, 100_000);
      }
    }
    // And their sums by day, as the aggregator writes those too (the views by day read whole days from them).
    db.prepare(
      `INSERT INTO quota_data_daily (user_id, username, model_name, created_at, token_used, count, quota)
       SELECT user_id, MIN(username), model_name, created_at - created_at % 86400, SUM(token_used), SUM(count), SUM(quota) FROM quota_data GROUP BY user_id, model_name, created_at - created_at % 86400`,
    ).run();
    db.close();
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
  });

  test('the sidebar links to the dashboard, whose charts and totals render in Chinese', async () => {
    const { page } = watched;
    await watched.goto('/token');
    await page.reload();
    await page.getByRole('link', { name: '数据看板' }).click();
    await page.waitForURL('**/detail');
    await page.getByRole('heading', { name: '数据看板' }).waitFor();
    await page.getByTestId('detail-total-calls').filter({ hasText: '20' }).waitFor();
    await page.getByTestId('detail-total-quota').filter({ hasText: '$2.50' }).waitFor();
    expect(await page.getByTestId('detail-total-tokens').textContent()).toBe('22.0k');
    // Stacked bars for both models, a pie slice per model, and a token line.
    const consumption = page.getByTestId('detail-chart-consumption');
    await consumption.locator('rect.MuiBarChart-element:not([height="0"])').first().waitFor();
    expect((await consumption.locator('svg text').allTextContents()).some((label) => /^\d\d-\d\d \d\d:\d\d$/.test(label))).toBe(true);
    for (const model of ['gpt-4o-mini', 'claude-3-haiku']) await consumption.getByText(model).first().waitFor();
    expect(await page.getByTestId('detail-chart-calls').locator('path').count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('detail-chart-tokens').locator('path').count()).toBeGreaterThan(0);
    await watched.screenshot('detail-zh');
  });

  test('granularity and user filter reload the charts; English, and on a phone nothing overflows', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await watched.goto('/detail');
    await page.getByRole('heading', { name: 'Data dashboard' }).waitFor();
    await page.getByText('Consumption, stacked by model').waitFor();

    // Ten days hour by hour is more than the server answers: the hint says so and the query waits for a shorter window or another granularity.
    const tenDaysBefore = await page.getByTestId('detail-end').evaluate((input: HTMLInputElement) => {
      const start = new Date(new Date(input.value).getTime() - 10 * 86_400_000);
      const pad = (value: number) => String(value).padStart(2, '0');
      return `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}T${pad(start.getHours())}:${pad(start.getMinutes())}`;
    });
    await page.getByTestId('detail-start').fill(tenDaysBefore);
    await page.getByTestId('detail-granularity-hint').filter({ hasText: 'By hour, at most 7 days' }).waitFor();
    expect(await page.getByTestId('detail-query').isDisabled()).toBe(true);

    await page.getByTestId('detail-granularity').click();
    await page.getByTestId('detail-granularity-day').click();
    await page.getByTestId('detail-granularity-hint').waitFor({ state: 'detached' });
    await page.getByTestId('detail-username').fill('nobody');
    await Promise.all([page.waitForResponse((response) => response.url().includes('granularity=day') && response.url().includes('username=nobody')), page.getByTestId('detail-query').click()]);
    await page.getByTestId('detail-empty').waitFor();

    await page.getByTestId('detail-username').fill(ROOT_USER.username);
    await page.getByTestId('detail-query').click();
    await page.getByTestId('detail-total-calls').filter({ hasText: '20' }).waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('detail-chart-calls').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 860 });
    await watched.screenshot('detail-en');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });
});
