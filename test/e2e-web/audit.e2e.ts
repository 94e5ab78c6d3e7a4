import type { Browser, Page } from 'playwright-core';
import { closeSession, loginThroughUi, ROOT_USER, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage, expectToast } from './operations-helpers';

/** Secrets the changes carry: none may reach the page. */
const CHANNEL_KEY = 'sk-e2e-audit-first-key-1111';
const NEW_CHANNEL_KEY = 'sk-e2e-audit-second-key-2222';
const ADMIN = { username: 'auditadmin', password: 'audit-admin-pass-1' };

const field = (page: Page, name: string) => page.locator(`[name="${name}"]`);
const ROW_SELECTOR = 'tr[data-testid^="audit-row-"]';
const rows = (page: Page) => page.locator(ROW_SELECTOR);

/** Waits until the table shows exactly `count` rows (the list reloads after each search). */
async function waitForRows(page: Page, count: number) {
  await page.waitForFunction(({ selector, count }) => document.querySelectorAll(selector).length === count, { selector: ROW_SELECTOR, count });
}

/** Runs the page's search and waits for the list it asked for. */
async function search(page: Page) {
  await Promise.all([page.waitForResponse((response) => response.url().includes('/api/audit/')), page.getByTestId('audit-search').click()]);
}

/** A datetime-local value (local time) for unix seconds. */
function localInput(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Root's audit page: the changes root made, secrets masked, the filters, both languages, desktop and phone; other admins kept out. */
describe('audit log page (/audit)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let channelId: number;
  let userId: number;

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole());
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
  });

  test('root sets the audit retention on the system tab; it is saved and shown again', async () => {
    const { page } = watched;
    await watched.goto('/setting?tab=system');
    const section = page.getByTestId('system-audit');
    await section.getByText('审计日志保留天数').first().waitFor();
    expect(await field(page, 'AuditLogRetentionDays').inputValue()).toBe('0');
    await field(page, 'AuditLogRetentionDays').fill('30');
    await section.getByRole('button', { name: /保存/ }).click();
    await expectToast(page, 'success', '');
    await page.reload();
    await page.getByTestId('system-audit').waitFor();
    expect(await field(page, 'AuditLogRetentionDays').inputValue()).toBe('30');
  });

  test('root changes a channel key and a user quota; the page lists every row with secrets masked (zh, desktop)', async () => {
    const { page } = watched;
    const created = await apiFromPage<Array<{ id: number }>>(page, 'POST', '/api/channel/', { name: 'audited channel', type: 1, key: CHANNEL_KEY, models: 'gpt-4o-mini', group: 'default' });
    expect(created.success).toBe(true);
    channelId = created.data[0].id;
    expect((await apiFromPage(page, 'PUT', '/api/channel/', { id: channelId, key: NEW_CHANNEL_KEY })).success).toBe(true);
    const user = await apiFromPage<unknown>(page, 'POST', '/api/user/', { username: ADMIN.username, password: ADMIN.password, display_name: 'Audit Admin' });
    expect(user.success).toBe(true);
    const listed = await apiFromPage<{ items: Array<{ id: number; username: string }> }>(page, 'GET', '/api/user/search?keyword=auditadmin');
    userId = listed.data.items.find((row) => row.username === ADMIN.username)!.id;
    expect((await apiFromPage(page, 'PUT', '/api/user/', { id: userId, quota: 7000, original_quota: 0 })).success).toBe(true);
    expect((await apiFromPage(page, 'POST', '/api/user/manage', { id: userId, action: 'promote' })).success).toBe(true);

    await watched.goto('/token');
    await page.getByTestId('sidebar').getByText('审计日志').click();
    await page.waitForURL('**/audit');
    await page.getByRole('heading', { name: '审计日志' }).waitFor();
    await rows(page).first().waitFor();
    const table = page.getByTestId('audit-table');
    await table.getByText('AuditLogRetentionDays').first().waitFor();
    await table.getByText('0 → 30').first().waitFor();
    // The channel key: created and changed, shown only as changed.
    const keyChanges = table.locator(`[data-testid$="-key"]`);
    expect(await keyChanges.count()).toBe(2);
    for (const text of await keyChanges.allTextContents()) expect(text).toBe('key: 已更改（密钥，不显示）');
    await table.getByText('quota: 0 → 7000').waitFor();
    await table.getByText('role: 1 → 10').waitFor();
    const pageText = (await page.locator('body').textContent()) ?? '';
    for (const secret of [CHANNEL_KEY, NEW_CHANNEL_KEY, ADMIN.password]) expect(pageText).not.toContain(secret);
    expect(await rows(page).count()).toBe(6);
    await watched.screenshot('audit-zh');
  });

  test('filters by actor, entity and date', async () => {
    const { page } = watched;
    await page.getByTestId('audit-filter-actor').fill('nobody');
    await search(page);
    await waitForRows(page, 0);
    await page.getByText('暂无数据').waitFor();

    await page.getByTestId('audit-filter-actor').fill(ROOT_USER.username);
    await search(page);
    await waitForRows(page, 6);

    await page.getByTestId('audit-filter-entity').locator('..').click();
    await page.getByRole('option', { name: '渠道' }).click();
    await search(page);
    await waitForRows(page, 2);
    for (const row of await rows(page).all()) expect(await row.textContent()).toContain(String(channelId));

    const now = Math.floor(Date.now() / 1000);
    await page.getByTestId('audit-filter-start').fill(localInput(now + 3600));
    await search(page);
    await waitForRows(page, 0);
    await page.getByTestId('audit-filter-start').fill(localInput(now - 3600));
    await page.getByTestId('audit-filter-end').fill(localInput(now + 3600));
    await search(page);
    await waitForRows(page, 2);

    await page.getByTestId('audit-reset').click();
    await waitForRows(page, 6);
  });

  test('in English, and on a phone nothing overflows the page', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await watched.goto('/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await rows(page).first().waitFor();
    const table = page.getByTestId('audit-table');
    await table.getByText('key: changed (secret, not shown)').first().waitFor();
    await table.getByText('Promoted to admin').waitFor();
    await table.getByText('Channel', { exact: true }).first().waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('audit-search').scrollIntoViewIfNeeded();
    await rows(page).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId('audit-filter-entity').locator('..').click();
    await page.getByRole('option', { name: 'User' }).click();
    await search(page);
    await waitForRows(page, 3);
    await page.setViewportSize({ width: 1280, height: 860 });
    await watched.screenshot('audit-en');
    await watched.goto('/setting?tab=system');
    await page.getByTestId('system-audit').getByText('Audit log retention (days)').first().waitFor();
    expect(await field(page, 'AuditLogRetentionDays').inputValue()).toBe('30');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });

  test('Swagger UI at /api/docs renders the OpenAPI document for root, from bundled files only', async () => {
    const { page } = watched;
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await watched.goto('/api/docs');
    await page.locator('.swagger-ui .opblock').first().waitFor();
    await page.locator('.opblock-summary-path', { hasText: '/api/audit' }).first().waitFor();
    await page.locator('.opblock-summary-path', { hasText: '/v1/chat/completions' }).first().waitFor();
    expect(requested.filter((url) => !url.startsWith(server.baseUrl) && !url.startsWith('data:'))).toEqual([]);
    await watched.screenshot('api-docs');
  });

  test('an administrator who is not root has no audit entry and cannot open the page', async () => {
    const admin = await WatchedPage.open(browser, server.baseUrl);
    try {
      await loginThroughUi(admin, ADMIN.username, ADMIN.password);
      const { page } = admin;
      await page.getByTestId('sidebar').getByText('渠道').first().waitFor();
      expect(await page.getByTestId('sidebar').getByText('审计日志').count()).toBe(0);
      await admin.goto('/audit');
      await page.waitForURL((url) => !url.pathname.startsWith('/audit'));
      expect(await page.getByTestId('audit-table').count()).toBe(0);
      admin.allow = [/HTTP 403 GET .*\/api\/audit/, /403/];
      const answer = await apiFromPage(page, 'GET', '/api/audit/');
      expect(answer.success).toBe(false);
      admin.expectNoConsoleErrors();
    } finally {
      await admin.close();
    }
  });
});
