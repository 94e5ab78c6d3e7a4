import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { closeSession, loginThroughUi, ROOT_USER, startConsole, WatchedPage, type TestServer } from './harness';
import { MockOpenAi } from './mock-openai';
import { apiFromPage, expectToast } from './operations-helpers';
import { openScratchDb } from './scratch-db';

/** A loopback "chat site": the public chat route must never load a public URL. */
function startLoopbackSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>loopback chat</title><p id="seen">${decodeURIComponent(request.url ?? '')}</p>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

const TEXT = {
  zh: { fixed: /已修复 \d+ 个渠道的能力表/, tested: '渠道 gaps 测试成功', submitFailed: '提交失败，请勿重复提交', copyName: 'gaps_复制', copyFailed: '渠道复制失败' },
  en: { fixed: /Abilities rebuilt for \d+ channels/, tested: 'Channel gaps passed the test', submitFailed: 'Submit failed, do not resubmit', copyName: 'gaps (copy)', copyFailed: 'Channel copy failed' },
} as const;

/** Each variant also checks one point of the group-ratio colour scale (above 5 red, above 3 orange, above 1 blue, else green). */
const VARIANTS = [
  { language: 'zh', width: 1280, ratio: 1, color: 'success' },
  { language: 'en', width: 1280, ratio: 2, color: 'info' },
  { language: 'zh', width: 390, ratio: 4, color: 'warning' },
  { language: 'en', width: 390, ratio: 6, color: 'error' },
] as const;

const LOG_ROWS = 100;

describe('console seed gaps and long tables (issue 31)', () => {
  let server: TestServer;
  let mock: MockOpenAi;
  let site: { server: Server; url: string };
  let browser: Browser;
  let channelId = 0;

  beforeAll(async () => {
    mock = await new MockOpenAi().start();
    site = await startLoopbackSite();
    const session = await startConsole();
    ({ server, browser } = session);
    const { watched } = session;
    const { page } = watched;
    for (const [key, value] of [
      ['fetch_setting.allow_private_ip', 'true'],
      ['ServerAddress', server.baseUrl],
      // Link 0 needs no token (public); link 1 carries {key}, so a visitor must sign in.
      ['Chats', JSON.stringify([{ 'Open Chat': `${site.url}/open?address={address}` }, { 'Keyed Chat': `${site.url}/keyed?key={key}` }])],
    ]) {
      expect((await apiFromPage(page, 'PUT', '/api/option/', { key, value })).success).toBe(true);
    }
    const created = await apiFromPage<{ id: number }[]>(page, 'POST', '/api/channel/', { name: 'gaps', type: 1, key: 'sk-gaps', base_url: mock.url, models: 'gpt-4o-mini,mock-small', group: 'default' });
    expect(created.success).toBe(true);
    channelId = created.data[0].id;
    await watched.close();

    // A full page of usage rows for the windowed table.
    const db = openScratchDb(server.dbPath);
    const now = Math.floor(Date.now() / 1000);
    const insert = db.prepare(
      `INSERT INTO logs (user_id, created_at, type, content, username, token_name, token_id, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, channel_name, "group", ip, other)
       VALUES (1, ?, 2, '', 'root', 'seeded', 1, 'gpt-4o-mini', 1500, 100, 200, 2, 0, ?, 'gaps', 'default', '', '{}')`,
    );
    for (let i = 0; i < LOG_ROWS; i += 1) insert.run(now - i, channelId);
    db.close();
  });
  afterAll(async () => {
    await closeSession({ browser, server });
    await mock?.stop();
    await new Promise((resolve) => site?.server.close(resolve));
  });

  describe.each(VARIANTS)('$language at $width px', ({ language, width, ratio, color }) => {
    let watched: WatchedPage;
    const text = TEXT[language];
    const device = width < 600 ? 'phone' : 'desktop';

    beforeAll(async () => {
      watched = await WatchedPage.open(browser, server.baseUrl, width);
      await watched.context.addInitScript((chosen) => {
        localStorage.setItem('i18nextLng', chosen);
        localStorage.setItem('page-size', '100');
      }, language);
      await loginThroughUi(watched, ROOT_USER.username, ROOT_USER.password);
    });
    afterAll(async () => {
      watched.expectNoConsoleErrors();
      await watched.close();
    });

    test('channel list: fix abilities, and a test with a chosen model', async () => {
      const { page } = watched;
      await watched.goto('/channel');
      await page.getByTestId('channels-fix-abilities').click();
      await expectToast(page, 'success', text.fixed);

      await page.getByTestId(`channel-test-model-${channelId}`).click();
      const option = page.getByTestId('channel-test-model-option-mock-small');
      await option.waitFor();
      await watched.screenshot(`gaps-test-model-${language}`);
      const asked = page.waitForRequest((request) => request.url().includes(`/api/channel/test/${channelId}?model=mock-small`));
      await option.click();
      await asked;
      await expectToast(page, 'success', text.tested);
    });

    test('channel list: copy opens the copy in the editor; a failed copy says so', async () => {
      const { page } = watched;
      await watched.goto('/channel');
      await page.getByTestId(`channel-copy-${channelId}`).click();
      await page.waitForURL((url) => /^\/channel\/edit\/\d+$/.test(url.pathname) && url.pathname !== `/channel/edit/${channelId}`);
      const name = page.getByTestId('channel-name');
      await name.waitFor();
      await page.waitForFunction((expected) => (document.querySelector('[data-testid="channel-name"]') as HTMLInputElement | null)?.value === expected, text.copyName);
      await watched.screenshot(`gaps-copy-${language}`);
      const copyId = Number(new URL(page.url()).pathname.split('/').pop());
      await page.keyboard.press('Escape');
      await page.waitForURL((url) => url.pathname === '/channel');
      // The copy is deleted again through the API, then copying its stale row fails with the spec's message.
      const copyRow = page.getByTestId(`channel-copy-${copyId}`);
      await copyRow.waitFor();
      expect((await apiFromPage(page, 'DELETE', `/api/channel/${copyId}/`)).success).toBe(true);
      await copyRow.click();
      await expectToast(page, 'error', text.copyFailed);
      await watched.goto('/channel');
    });

    test('channel form: a save that gets no answer says "submit failed, do not resubmit"', async () => {
      const { page } = watched;
      watched.allow = [/net::ERR_FAILED/];
      await watched.goto(`/channel/edit/${channelId}`);
      await page.getByTestId('channel-name').waitFor();
      await page.route('**/api/channel/', (route) => (route.request().method() === 'PUT' ? route.abort('failed') : route.continue()));
      await page.getByTestId('channel-submit').click();
      await expectToast(page, 'error', text.submitFailed);
      await page.unroute('**/api/channel/');
      watched.allow = [];
    });

    test('/user/edit/{id} and /user/edit open the editor; closing returns to /user', async () => {
      const { page } = watched;
      await watched.goto('/user/edit/1');
      const drawer = page.getByTestId('edit-user-drawer');
      await drawer.locator('input[name="username"]').waitFor();
      expect(await drawer.locator('input[name="username"]').inputValue()).toBe(ROOT_USER.username);
      await watched.screenshot(`gaps-user-edit-${language}`);
      await drawer.getByRole('button', { name: language === 'zh' ? '关闭' : 'Close' }).click();
      await page.waitForURL((url) => url.pathname === '/user');
      await drawer.waitFor({ state: 'detached' });

      await watched.goto('/user/edit');
      await drawer.locator('input[name="username"]').waitFor();
      expect(await drawer.locator('input[name="username"]').inputValue()).toBe(ROOT_USER.username);
      await page.keyboard.press('Escape');
      await page.waitForURL((url) => url.pathname === '/user');
    });

    test('/chat/{id} is public; a link that needs a token sends the visitor to sign in', async () => {
      const visitor = await WatchedPage.open(browser, server.baseUrl, width, language);
      const { page } = visitor;
      await visitor.goto('/chat/0');
      const frame = page.getByTestId('chat-frame');
      await frame.waitFor();
      expect(await frame.getAttribute('src')).toBe(`${site.url}/open?address=${encodeURIComponent(server.baseUrl)}`);
      await page.frameLocator('[data-testid="chat-frame"]').locator('#seen').waitFor();
      await visitor.goto('/chat/1');
      await page.waitForURL((url) => url.pathname === '/login');
      visitor.expectNoConsoleErrors();
      await visitor.close();
    });

    test(`pricing: a group ratio of ${ratio} is coloured ${color}`, async () => {
      const { page } = watched;
      const groupRatio = JSON.stringify({ default: ratio, vip: 1 });
      expect((await apiFromPage(page, 'PUT', '/api/option/', { key: 'GroupRatio', value: groupRatio })).success).toBe(true);
      await watched.goto('/pricing');
      await page.getByTestId('pricing-show-ratio').click();
      const chip = page.getByTestId('pricing-group-ratio-gpt-4o-mini');
      await chip.waitFor();
      expect(await chip.getAttribute('data-ratio-color')).toBe(color);
      await watched.screenshot(`gaps-pricing-${language}-${device}`);
    });

    test('usage log: a page of 100 rows renders only those on screen, and scrolling reaches the last', async () => {
      const { page } = watched;
      await watched.goto('/log');
      const rows = page.locator('tr[data-testid^="log-row-"]');
      await rows.first().waitFor();
      const rendered = await rows.count();
      expect(rendered).toBeGreaterThan(3);
      expect(rendered).toBeLessThan(60);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.getByTestId('rows-spacer-after').waitFor({ state: 'detached' });
      expect(await page.locator('tr[data-testid^="log-row-"]').count()).toBeLessThan(60);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByTestId('rows-spacer-before').waitFor({ state: 'detached' });
    });
  });
});
