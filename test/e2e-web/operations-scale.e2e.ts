import type { Browser, Page } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { MockOpenAi } from './mock-openai';
import { apiFromPage, chatThroughGateway } from './operations-helpers';
import { cloneRows, openScratchDb } from './scratch-db';

const ROWS = 10_000;
/** The usage log's total stops counting at 10,000 rows (the log service's cap); more rows show as "10000+". */
const LOG_COUNT_CAP = 10_000;

function cappedTotal(rows: number): string {
  return rows > LOG_COUNT_CAP ? `${LOG_COUNT_CAP}+` : String(rows);
}

/** Opens a page and reports how long until its first table row shows; the time is printed, not asserted. */
async function timeFirstRows(watched: WatchedPage, path: string, rowPrefix: string): Promise<number> {
  const started = Date.now();
  await watched.page.goto(path);
  await watched.page.locator(`tr[data-testid^="${rowPrefix}"]`).first().waitFor();
  const elapsed = Date.now() - started;
  console.log(`[scale] ${path}: first rows rendered in ${elapsed} ms with ${ROWS} rows in the database`);
  await watched.page.waitForLoadState('networkidle');
  return elapsed;
}

/** Runs `action` and waits until the list answer for `apiPath` has arrived and been rendered. */
async function andListLoaded(page: Page, apiPath: string, action: () => Promise<void>): Promise<{ serverMs: number; totalMs: number }> {
  const started = Date.now();
  let serverMs = 0;
  await Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname.startsWith(apiPath)).then(() => (serverMs = Date.now() - started)),
    action(),
  ]);
  await page.waitForFunction(() => !document.querySelector('.MuiLinearProgress-root'));
  return { serverMs, totalMs: Date.now() - started };
}

/** Chooses 100 rows per page, then pages forward three times, and reports the time per page. */
async function pagesOfHundred(page: Page, apiPath: string, label: string) {
  const sizeSelect = page.getByTestId('table-pagination').getByRole('combobox');
  if ((await sizeSelect.textContent())?.trim() !== '100') {
    await sizeSelect.click();
    await andListLoaded(page, apiPath, () => page.getByRole('option', { name: '100', exact: true }).click());
  }
  const next = page.getByTestId('table-pagination').getByRole('button').last();
  for (let step = 1; step <= 3; step += 1) {
    const { serverMs, totalMs } = await andListLoaded(page, apiPath, () => next.click());
    console.log(`[scale] ${label}: page ${step + 1} of 100 rows: answer after ${serverMs} ms, rendered after ${totalMs} ms`);
  }
}

describe('operations tables stay usable with 10,000 rows', () => {
  let server: TestServer;
  let mock: MockOpenAi;
  let browser: Browser;
  let watched: WatchedPage;
  /** Every log row after seeding: the clones, the real call, and the ledger's own rows (setup, settings). */
  let logRows = 0;

  beforeAll(async () => {
    mock = await new MockOpenAi().start();
    ({ server, browser, watched } = await startConsole());

    // One real channel, token and consumption entry, then ten thousand copies of each.
    const { page } = watched;
    // The mock upstream listens on loopback, which the outbound guard refuses until root allows private networks.
    expect((await apiFromPage(page, 'PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' })).success).toBe(true);
    const channel = await apiFromPage<{ id: number }[]>(page, 'POST', '/api/channel/', { name: 'seed', type: 1, key: 'sk-seed', base_url: mock.url, models: 'gpt-4o-mini', group: 'default' });
    const token = await apiFromPage<{ id: number; key: string }[]>(page, 'POST', '/api/token/', { name: 'seed', remain_quota: 5_000_000 });
    expect(await chatThroughGateway(server.baseUrl, token.data[0].key)).toBe(200);
    const db = openScratchDb(server.dbPath);
    let logId = 0;
    for (let attempt = 0; attempt < 40 && !logId; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      logId = Number(db.prepare("SELECT id FROM logs WHERE model_name = 'gpt-4o-mini' LIMIT 1").all()[0]?.id ?? 0);
    }
    expect(logId).toBeGreaterThan(0);
    const now = Math.floor(Date.now() / 1000);
    expect(cloneRows(db, 'channels', channel.data[0].id, ROWS, { name: "'bulk-' || i", tag: "'tag-' || (i % 1000)", status: "CASE WHEN i % 7 = 0 THEN 2 ELSE 1 END", response_time: 'i % 6000' })).toBe(ROWS);
    // Keys in the clear without a hash, as an older version stored them (key_hash is unique).
    expect(cloneRows(db, 'tokens', token.data[0].id, ROWS, { name: "'bulk-' || i", key: "'bulk' || printf('%044d', i)", key_hash: 'NULL' })).toBe(ROWS);
    expect(cloneRows(db, 'logs', logId, ROWS, { created_at: `${now} - i`, use_time: 'i % 400' })).toBe(ROWS);
    logRows = Number(db.prepare('SELECT COUNT(*) AS n FROM logs').all()[0].n);
    expect(logRows).toBeGreaterThan(ROWS);
    db.close();
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
    await mock?.stop();
  });

  test('channels: paged list, search and tag mode', async () => {
    const { page } = watched;
    await timeFirstRows(watched, '/channel', 'channel-row-');
    await page.getByTestId('table-pagination').getByText(`共 ${ROWS + 1} 条`).waitFor();
    await watched.screenshot('channels-10k');
    await pagesOfHundred(page, '/api/channel', '/channel');
    await page.getByTestId('channel-search-keyword').fill('bulk-9999');
    await andListLoaded(page, '/api/channel/search', () => page.getByTestId('channel-search-submit').click());
    expect(await page.locator('tr[data-testid^="channel-row-"]').count()).toBe(1);
    await page.getByTestId('channel-search-keyword').fill('');
    await andListLoaded(page, '/api/channel', () => page.getByTestId('channel-search-submit').click());
    const started = Date.now();
    await page.getByTestId('channels-tag-mode').click();
    await page.locator('tr[data-testid^="tag-row-"]').first().waitFor();
    console.log(`[scale] /channel tag mode: first tag rows in ${Date.now() - started} ms`);
    await page.waitForLoadState('networkidle');
    await page.getByTestId('channels-tag-mode').click();
    await page.waitForLoadState('networkidle');
  });

  test('tokens: paged list and search by name', async () => {
    const { page } = watched;
    await timeFirstRows(watched, '/token', 'token-row-');
    await page.getByTestId('table-pagination').getByText(`共 ${ROWS + 1} 条`).waitFor();
    await watched.screenshot('tokens-10k');
    await pagesOfHundred(page, '/api/token', '/token');
    await page.getByTestId('token-search-keyword').fill('bulk-4242');
    await andListLoaded(page, '/api/token/search', () => page.getByTestId('token-search-submit').click());
    expect(await page.locator('tr[data-testid^="token-row-"]').count()).toBe(1);
  });

  test('usage log: paged list, statistics and filters', async () => {
    const { page } = watched;
    // The default window starts at midnight; widen it so every seeded entry is in range.
    await page.goto('/log');
    await page.getByTestId('log-filter-start').fill('2000-01-01T00:00');
    const started = Date.now();
    await page.getByTestId('log-search').click();
    await page.getByTestId('table-pagination').getByText(`共 ${cappedTotal(logRows)} 条`).waitFor();
    console.log(`[scale] /log: ${logRows} entries counted and first page rendered in ${Date.now() - started} ms`);
    await page.waitForLoadState('networkidle');
    await watched.screenshot('logs-10k');
    await pagesOfHundred(page, '/api/log', '/log');
    await page.getByTestId('log-filter-model').fill('gpt-4o');
    await andListLoaded(page, '/api/log', () => page.getByTestId('log-search').click());
    await page.getByTestId('table-pagination').getByText(`共 ${cappedTotal(ROWS + 1)} 条`).waitFor();
    // A filter that matches fewer rows than the cap shows the exact count.
    await page.getByTestId('log-filter-model').fill('no-such-model');
    await andListLoaded(page, '/api/log', () => page.getByTestId('log-search').click());
    await page.getByTestId('table-pagination').getByText('共 0 条').waitFor();

    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.goto('/log');
    await page.getByTestId('log-filter-start').fill('2000-01-01T00:00');
    await andListLoaded(page, '/api/log', () => page.getByTestId('log-search').click());
    await page.getByTestId('table-pagination').getByText(`of ${cappedTotal(logRows)}`).waitFor();
    await watched.screenshot('logs-10k-en');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });

  test('channels: the upstream test lists the groups and clients that reach a channel', async () => {
    const { page } = watched;
    await page.goto('/channel');
    await page.getByTestId('channel-search-keyword').fill('seed');
    await andListLoaded(page, '/api/channel/search', () => page.getByTestId('channel-search-submit').click());
    const seedRow = page.locator('tr[data-testid^="channel-row-"]', { hasText: 'seed' }).first();
    const id = (await seedRow.getAttribute('data-testid'))!.replace('channel-row-', '');
    await page.getByTestId(`channel-test-upstream-${id}`).click();
    await page.getByRole('dialog').getByText('上游检测：seed').waitFor();
    // The real call plus the cloned consume rows (all of this channel, group default, through the OpenAI chat API).
    const defaultGroup = page.getByTestId('upstream-group-default');
    await defaultGroup.getByText(`OpenAI 对话 × ${ROWS + 1}`).waitFor();
    await watched.screenshot('channel-upstream-test');
    await page.getByRole('button', { name: '关闭' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });
});
