import type { Browser } from 'playwright-core';
import { closeSession, loginThroughUi, ROOT_USER, startConsole, WatchedPage, type TestServer } from './harness';
import { MockOpenAi } from './mock-openai';
import { apiFromPage, expectToast } from './operations-helpers';

const TEXT = {
  zh: { summary: '密钥：已启用 2 / 共 3 个', failed: '密钥 #1 测试失败', passed: '密钥 #1 测试通过', enabled: '已启用', auto: '已自动禁用', manual: '已手动禁用', polling: '轮询', confirmDelete: '删除', remaining: '密钥：已启用 1 / 共 2 个' },
  en: { summary: 'Keys: 2 of 3 enabled', failed: 'Key #1 failed', passed: 'Key #1 passed', enabled: 'Enabled', auto: 'Auto-disabled', manual: 'Disabled', polling: 'In turn (polling)', confirmDelete: 'Delete', remaining: 'Keys: 1 of 2 enabled' },
} as const;

const VARIANTS = [
  { language: 'zh', width: 1280 },
  { language: 'en', width: 390 },
] as const;

describe('channel editor: the keys of a multi-key channel', () => {
  let server: TestServer;
  let mock: MockOpenAi;
  let browser: Browser;

  beforeAll(async () => {
    mock = await new MockOpenAi().start();
    const session = await startConsole();
    ({ server, browser } = session);
    const { watched } = session;
    for (const [key, value] of [
      ['fetch_setting.allow_private_ip', 'true'],
      ['AutomaticDisableChannelEnabled', 'true'],
      ['AutomaticEnableChannelEnabled', 'true'],
    ]) {
      expect((await apiFromPage(watched.page, 'PUT', '/api/option/', { key, value })).success).toBe(true);
    }
    await watched.close();
  });
  afterAll(async () => {
    await closeSession({ browser, server });
    await mock?.stop();
  });

  describe.each(VARIANTS)('$language at $width px', ({ language, width }) => {
    let watched: WatchedPage;
    const text = TEXT[language];
    const keys = [0, 1, 2].map((index) => `sk-e2e-${language}-key-${index}-0123456789abcdef`);

    beforeAll(async () => {
      watched = await WatchedPage.open(browser, server.baseUrl, width, language);
      await loginThroughUi(watched, ROOT_USER.username, ROOT_USER.password);
    });
    afterAll(async () => {
      watched.expectNoConsoleErrors();
      await watched.close();
    });

    test('lists the keys masked, tests, disables, enables and deletes one', async () => {
      const { page } = watched;
      const created = await apiFromPage<{ id: number }[]>(page, 'POST', '/api/channel/', {
        name: `multi-${language}`,
        type: 1,
        key: keys.join('\n'),
        base_url: mock.url,
        models: 'gpt-4o-mini',
        group: 'default',
        multi_key_mode: 'polling',
      });
      expect(created.success).toBe(true);
      const id = created.data[0].id;
      mock.revokedKeys.add(keys[1]);

      await watched.goto(`/channel/edit/${id}`);
      const panel = page.getByTestId('channel-keys');
      await panel.waitFor();
      expect(await page.getByTestId('channel-multi-key').locator('input').isChecked()).toBe(true);
      expect(await page.getByTestId('channel-multi-key-mode').textContent()).toContain(text.polling);
      for (const index of [0, 1, 2]) expect(await page.getByTestId(`channel-key-${index}-masked`).textContent()).toBe(`sk-e…cdef`);

      // The revoked key fails its test and is disabled alone.
      await page.getByTestId('channel-key-1-test').click();
      await expectToast(page, 'error', text.failed);
      await page.getByTestId('channel-key-1-status').filter({ hasText: text.auto }).waitFor();
      await panel.filter({ hasText: text.summary }).waitFor();
      await watched.screenshot(`multi-key-${language}-${width}`);

      // Once the upstream takes it again, a passing test brings it back.
      mock.revokedKeys.delete(keys[1]);
      await page.getByTestId('channel-key-1-test').click();
      await expectToast(page, 'success', text.passed);
      await page.getByTestId('channel-key-1-status').filter({ hasText: text.enabled }).waitFor();

      await page.getByTestId('channel-key-2-disable').click();
      await page.getByTestId('channel-key-2-status').filter({ hasText: text.manual }).waitFor();
      await page.getByTestId('channel-key-2-enable').click();
      await page.getByTestId('channel-key-2-status').filter({ hasText: text.enabled }).waitFor();
      await page.getByTestId('channel-key-2-disable').click();
      await page.getByTestId('channel-key-2-status').filter({ hasText: text.manual }).waitFor();

      await page.getByTestId('channel-key-0-delete').click();
      await page.getByRole('dialog').getByRole('button', { name: text.confirmDelete }).click();
      await panel.filter({ hasText: text.remaining }).waitFor();
      await page.getByTestId('channel-key-2').waitFor({ state: 'detached' });
      await page.getByTestId('channel-key-1-status').filter({ hasText: text.manual }).waitFor();

      const html = await page.content();
      for (const key of keys) expect(html).not.toContain(key);
    });
  });
});
