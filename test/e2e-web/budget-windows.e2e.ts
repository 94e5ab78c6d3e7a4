import type { Browser } from 'playwright-core';
import { closeSession, loginThroughUi, ROOT_USER, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage } from './operations-helpers';

const USER = { username: 'dora', password: 'dora-pass-1' };

interface TokenJson {
  id: number;
  budget_windows: Array<{ period: string; quota: number }>;
  budget_usage: Array<{ period: string; quota: number; used: number; resets_at: number | null }>;
  rpm_limit: number;
  tpm_limit: number;
}

/** The token editor's budget windows and limits, the list's use bars and the admin user editor, in zh and en, desktop and phone. */
describe('budget windows and limits in the console', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole({ register: [USER], signInAs: USER }));
  });
  afterAll(() => closeSession({ watched, browser, server }));

  async function tokensOfUser(): Promise<TokenJson[]> {
    return (await apiFromPage<{ items: TokenJson[] }>(watched.page, 'GET', '/api/token/?p=1&size=10')).data.items;
  }

  test('a token gets two windows and both limits; a bad quota is refused in the form (zh, desktop)', async () => {
    const { page } = watched;
    await watched.goto('/token');
    await page.getByTestId('add-token').click();
    const drawer = page.getByTestId('token-drawer');
    await drawer.getByTestId('token-name').fill('windowed');
    await drawer.getByTestId('token-budget-add').click();
    await drawer.getByTestId('token-budget-add').click();
    await drawer.getByTestId('token-budget-quota-0').fill('abc');
    await drawer.getByTestId('token-budget-quota-1').fill('5000000');
    await drawer.getByTestId('token-budget-rpm').fill('60');
    await drawer.getByTestId('token-budget-tpm').fill('100000');
    await drawer.getByTestId('token-submit').click();
    await drawer.getByTestId('token-budget-error').filter({ hasText: '周期额度必须是非负整数' }).waitFor();
    await drawer.getByTestId('token-budget-quota-0').fill('1000000');
    await watched.screenshot('token-budget-drawer');
    await drawer.getByTestId('token-submit').click();
    await drawer.waitFor({ state: 'hidden' });

    const [token] = await tokensOfUser();
    expect(token.budget_windows).toEqual([
      { period: '5h', quota: 1_000_000 },
      { period: 'day', quota: 5_000_000 },
    ]);
    expect(token).toMatchObject({ rpm_limit: 60, tpm_limit: 100_000 });
    const bars = page.getByTestId(`token-windows-${token.id}`);
    await bars.waitFor();
    expect(await bars.getByRole('progressbar').count()).toBe(2);
    await watched.screenshot('token-budget-list');

    // The editor loads what was saved; removing a window saves that too.
    await page.getByTestId(`token-edit-${token.id}`).click();
    await drawer.getByTestId('token-budget-quota-1').waitFor();
    expect(await drawer.getByTestId('token-budget-quota-0').inputValue()).toBe('1000000');
    expect(await drawer.getByTestId('token-budget-rpm').inputValue()).toBe('60');
    await drawer.getByTestId('token-budget-remove-0').click();
    await drawer.getByTestId('token-submit').click();
    await drawer.waitFor({ state: 'hidden' });
    const [edited] = await tokensOfUser();
    expect(edited.budget_windows).toEqual([{ period: 'day', quota: 5_000_000 }]);
  });

  test('in English on a phone the editor and the bars fit', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.setViewportSize({ width: 390, height: 844 });
    await watched.goto('/token');
    const [token] = await tokensOfUser();
    await page.getByTestId(`token-edit-${token.id}`).click();
    const drawer = page.getByTestId('token-drawer');
    await drawer.getByText('Budget windows and rate limits').waitFor();
    await drawer.getByLabel('Requests per minute (RPM)').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await watched.screenshot('token-budget-drawer-en');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });

  test('an administrator sets a user’s windows and limits in the user editor', async () => {
    const admin = await WatchedPage.open(browser, server.baseUrl);
    try {
      await loginThroughUi(admin, ROOT_USER.username, ROOT_USER.password);
      const { page } = admin;
      await admin.goto('/user');
      const doraId = await watched.page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { id?: number }).id);
      await page.getByTestId(`action-edit-${doraId}`).click();
      const drawer = page.getByTestId('edit-user-drawer');
      await drawer.getByTestId('user-budget-add').click();
      await drawer.getByTestId('user-budget-quota-0').fill('2000000');
      await drawer.getByTestId('user-budget-tpm').fill('50000');
      await admin.screenshot('user-budget-drawer');
      await drawer.getByRole('button', { name: '保存' }).click();
      await drawer.waitFor({ state: 'hidden' });
      const self = await watched.page.evaluate(async () => {
        const stored = JSON.parse(localStorage.getItem('user') ?? '{}') as { id?: number };
        const response = await fetch('/api/user/self', { headers: { 'New-Api-User': String(stored.id ?? '') } });
        return ((await response.json()) as { data: TokenJson }).data;
      });
      expect(self.budget_windows).toEqual([{ period: '5h', quota: 2_000_000 }]);
      expect(self).toMatchObject({ rpm_limit: 0, tpm_limit: 50_000 });
      admin.expectNoConsoleErrors();
    } finally {
      await admin.close();
    }
  });
});
