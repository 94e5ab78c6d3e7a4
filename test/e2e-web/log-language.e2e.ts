import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { closeSession, launchBrowser, loginThroughUi, ROOT_USER, setupThroughApi, startServer, WatchedPage, type TestServer } from './harness';
import { MockOpenAi } from './mock-openai';
import { apiFromPage, chatThroughGateway, expectToast, rowId } from './operations-helpers';
import { openScratchDb } from './scratch-db';

type Language = 'zh' | 'en';

/** What each console shows for the rows of this file, and the CSV headers it writes. */
const TEXT = {
  zh: {
    redeemed: (quota: number, id: number) => `通过兑换码充值 ${quota} 额度，兑换码 ID ${id}`,
    consume: /^模型倍率 [\d.]+，补全倍率 [\d.]+，分组倍率 1$/,
    csvHeader: 'ID,时间,类型,用户,令牌,分组,模型,渠道,用时（秒）,流式,提示,补全,额度,详情',
    topUp: '充值',
  },
  en: {
    redeemed: (quota: number, id: number) => `Redeemed a code for ${quota} quota, code id ${id}`,
    consume: /^Model ratio [\d.]+, completion ratio [\d.]+, group ratio 1$/,
    csvHeader: 'ID,Time,Type,User,Token,Group,Model,Channel,Duration (s),Stream,Prompt,Completion,Quota,Details',
    topUp: 'Top-up',
  },
} as const;

/** Stored before log rows had message keys: the console shows it as it is, in every language. */
const OLD_ROW_TEXT = '旧版本写入的系统记录';

/**
 * Issue 31 part 2: a log row written from a console in one language reads in the other, in the table, its detail
 * and the CSV export, on desktop and phone; a row from before message keys keeps its stored text.
 */
describe('usage log in the reader’s language', () => {
  let server: TestServer;
  let mock: MockOpenAi;
  let browser: Browser;
  const consoles = {} as Record<Language, WatchedPage>;
  /** The redemption code each console redeemed, by its id. */
  const codes = {} as Record<Language, { key: string; id: number; quota: number }>;

  async function openConsole(language: Language): Promise<WatchedPage> {
    const watched = await WatchedPage.open(browser, server.baseUrl, 1280, language);
    await loginThroughUi(watched, ROOT_USER.username, ROOT_USER.password);
    return watched;
  }

  /** The log page, reloaded until the consumption row (written off the request path) is in. */
  async function openLog(watched: WatchedPage): Promise<void> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await watched.goto('/log');
      if ((await watched.page.locator('tr[data-testid^="log-row-"]', { hasText: 'gpt-4o-mini' }).count()) > 0) return;
      await watched.page.waitForTimeout(250);
    }
  }

  beforeAll(async () => {
    mock = await new MockOpenAi().start();
    server = await startServer();
    await setupThroughApi(server.baseUrl);
    browser = await launchBrowser();
    consoles.zh = await openConsole('zh');
    consoles.en = await openConsole('en');
    const { page } = consoles.zh;
    expect((await apiFromPage(page, 'PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' })).success).toBe(true);
    expect((await apiFromPage(page, 'POST', '/api/channel/', { name: 'mock', type: 1, key: 'sk-mock', base_url: mock.url, models: 'gpt-4o-mini', group: 'default' })).success).toBe(true);
    for (const [language, quota] of [['zh', 1111], ['en', 2222]] as const) {
      const [key] = (await apiFromPage<string[]>(page, 'POST', '/api/redemption/', { name: `lang-${language}`, quota, count: 1 })).data;
      const search = await apiFromPage<{ items: { id: number }[] }>(page, 'GET', `/api/redemption/search?keyword=${key}`);
      codes[language] = { key, id: search.data.items[0].id, quota };
    }
    const token = await apiFromPage<{ key: string }[]>(page, 'POST', '/api/token/', { name: 'lang', remain_quota: 5_000_000 });
    expect(await chatThroughGateway(server.baseUrl, token.data[0].key)).toBe(200);
    const db = openScratchDb(server.dbPath);
    db.prepare(`INSERT INTO logs (user_id, created_at, type, content, username, quota, other) VALUES (1, ?, 4, ?, 'root', 0, '')`).run(Math.floor(Date.now() / 1000), OLD_ROW_TEXT);
    db.close();
  });
  afterAll(async () => {
    consoles.zh?.expectNoConsoleErrors();
    await consoles.zh?.close();
    await closeSession({ watched: consoles.en, browser, server });
    await mock?.stop();
  });

  test('each console redeems its code through the wallet page, in its own language', async () => {
    for (const language of ['zh', 'en'] as const) {
      const { page } = consoles[language];
      await consoles[language].goto('/topup');
      await page.getByTestId('redeem-code').fill(codes[language].key);
      await page.getByTestId('redeem-submit').click();
      await expectToast(page, 'success', language === 'zh' ? '兑换成功' : 'Redeemed');
    }
  });

  describe.each([
    { reader: 'en', writer: 'zh' },
    { reader: 'zh', writer: 'en' },
  ] as const)('read in $reader', ({ reader, writer }) => {
    const text = TEXT[reader];

    test(`the row written in ${writer}, the consumption row and an old row, on desktop and phone`, async () => {
      const watched = consoles[reader];
      const { page } = watched;
      await openLog(watched);
      const written = codes[writer];
      const redeemRow = await rowId(page, 'log-row-', text.redeemed(written.quota, written.id));
      expect(await page.getByTestId(`log-content-${redeemRow}`).innerText()).toBe(text.redeemed(written.quota, written.id));
      expect(await page.getByTestId(`log-row-${redeemRow}`).getByText(text.topUp, { exact: true }).count()).toBe(1);
      // The other console's own row reads in this language too.
      const own = codes[reader];
      await rowId(page, 'log-row-', text.redeemed(own.quota, own.id));
      const oldRow = await rowId(page, 'log-row-', OLD_ROW_TEXT);
      expect(await page.getByTestId(`log-content-${oldRow}`).innerText()).toBe(OLD_ROW_TEXT);

      await page.getByTestId(`log-expand-${redeemRow}`).click();
      expect(await page.getByTestId(`log-detail-text-${redeemRow}`).innerText()).toBe(text.redeemed(written.quota, written.id));
      const consumeRow = await rowId(page, 'log-row-', 'gpt-4o-mini');
      await page.getByTestId(`log-expand-${consumeRow}`).click();
      expect(await page.getByTestId(`log-detail-text-${consumeRow}`).innerText()).toMatch(text.consume);

      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.getByTestId(`log-content-${redeemRow}`).innerText()).toBe(text.redeemed(written.quota, written.id));
      expect(await page.getByTestId(`log-detail-text-${consumeRow}`).innerText()).toMatch(text.consume);
      await page.setViewportSize({ width: 1280, height: 860 });
      await watched.screenshot(`log-language-${reader}`);
    });

    test('the CSV export is in the exporter’s language', async () => {
      const { page } = consoles[reader];
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('log-export').click()]);
      expect(download.suggestedFilename()).toMatch(/^usage-log-\d{14}\.csv$/);
      const csv = readFileSync((await download.path())!, 'utf8');
      await expectToast(page, 'success', reader === 'zh' ? '已导出' : 'Exported');
      const lines = csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
      expect(lines[0]).toBe(text.csvHeader);
      const written = codes[writer];
      const redeemLine = lines.find((line) => line.includes(text.redeemed(written.quota, written.id)));
      expect(redeemLine?.split(',').slice(2, 4)).toEqual([text.topUp, 'root']);
      expect(lines.some((line) => text.consume.test(line.split(',').slice(13).join(',').replace(/^"|"$/g, '')))).toBe(true);
      expect(lines.some((line) => line.endsWith(`,${OLD_ROW_TEXT}`))).toBe(true);
    });
  });
});
