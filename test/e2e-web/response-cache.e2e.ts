import type { Browser, Page } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage, expectToast } from './operations-helpers';

interface TokenJson {
  id: number;
  name: string;
  response_cache: boolean;
  response_cache_nondeterministic: boolean;
}

/** The input of a react-hook-form field by its name. */
const field = (page: Page, name: string) => page.locator(`[name="${name}"]`);

/** The token editor's response cache switches and the operation settings' Response cache section, in zh and en, desktop and phone. */
describe('response cache in the console', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole());
  });
  afterAll(() => closeSession({ watched, browser, server }));

  async function tokens(): Promise<TokenJson[]> {
    return (await apiFromPage<{ items: TokenJson[] }>(watched.page, 'GET', '/api/token/?p=1&size=10')).data.items;
  }

  test('a token turns the cache on in its editor, and sampled chats later (zh, desktop)', async () => {
    const { page } = watched;
    await watched.goto('/token');
    await page.getByTestId('add-token').click();
    const drawer = page.getByTestId('token-drawer');
    await drawer.getByTestId('token-name').fill('cached');
    await drawer.getByText('完全相同的请求', { exact: false }).waitFor();
    await drawer.getByTestId('token-response-cache').click();
    await watched.screenshot('token-response-cache-drawer');
    await drawer.getByTestId('token-submit').click();
    await drawer.waitFor({ state: 'hidden' });
    const [created] = await tokens();
    expect(created).toMatchObject({ name: 'cached', response_cache: true, response_cache_nondeterministic: false });

    // The editor loads what was saved; the second switch saves on its own.
    await page.getByTestId(`token-edit-${created.id}`).click();
    await drawer.getByTestId('token-response-cache').locator('input').waitFor();
    expect(await drawer.getByTestId('token-response-cache').locator('input').isChecked()).toBe(true);
    await drawer.getByTestId('token-response-cache-nondeterministic').click();
    await drawer.getByTestId('token-submit').click();
    await drawer.waitFor({ state: 'hidden' });
    const [edited] = await tokens();
    expect(edited).toMatchObject({ response_cache: true, response_cache_nondeterministic: true });
  });

  test('in English on a phone the editor fits', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await watched.goto('/token');
      const [token] = await tokens();
      await page.getByTestId(`token-edit-${token.id}`).click();
      const drawer = page.getByTestId('token-drawer');
      await drawer.getByText('Also cache sampled chats').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await watched.screenshot('token-response-cache-drawer-en');
      await page.keyboard.press('Escape');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
    }
  });

  test('an administrator sets the cached groups, the lifetime and the price of a hit', async () => {
    const { page } = watched;
    await watched.goto('/setting?tab=operation');
    const section = page.getByTestId('settings-response-cache');
    await section.getByText('响应缓存').first().waitFor();
    expect(await field(page, 'ResponseCacheHitRatio').inputValue()).toBe('0.1');
    await field(page, 'ResponseCacheGroups').fill('vip,default');
    await field(page, 'ResponseCacheTTLSeconds').fill('600');
    await field(page, 'ResponseCacheHitRatio').fill('0.2');
    await watched.screenshot('settings-response-cache');
    await section.getByRole('button', { name: /保存/ }).click();
    await expectToast(page, 'success', '保存成功');
    const options = Object.fromEntries((await apiFromPage<{ key: string; value: string }[]>(page, 'GET', '/api/option/')).data.map((option) => [option.key, option.value]));
    expect(options).toMatchObject({ ResponseCacheGroups: 'vip,default', ResponseCacheTTLSeconds: '600', ResponseCacheHitRatio: '0.2', ResponseCacheSharedAcrossUsers: 'false' });

    // Out of bounds: refused in the form, nothing sent.
    await field(page, 'ResponseCacheHitRatio').fill('2');
    await section.getByRole('button', { name: /保存/ }).click();
    await section.getByText('不能大于 1').waitFor();
    const after = Object.fromEntries((await apiFromPage<{ key: string; value: string }[]>(page, 'GET', '/api/option/')).data.map((option) => [option.key, option.value]));
    expect(after.ResponseCacheHitRatio).toBe('0.2');
    watched.expectNoConsoleErrors();
  });
});
