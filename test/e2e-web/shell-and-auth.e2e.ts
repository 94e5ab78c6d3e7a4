import type { Browser } from 'playwright-core';
import { launchBrowser, ROOT_USER, startServer, WatchedPage, type TestServer } from './harness';

const CJK = /[\u4e00-\u9fff]/;

describe('console shell, setup and sign-in', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    watched = await WatchedPage.open(browser, server.baseUrl);
  });
  afterEach(async () => {
    watched.expectNoConsoleErrors();
    await watched.close();
  });

  test('first-run setup, then login shows the default-password modal', async () => {
    const { page } = watched;
    await watched.goto('/');
    await page.waitForURL('**/setup');
    await page.getByTestId('sqlite-warning').waitFor();
    await page.getByTestId('setup-submit').click();
    await page.getByText('请输入管理员用户名').waitFor();
    await page.getByText('密码长度至少为 8 个字符').waitFor();
    await watched.screenshot('setup');

    await page.locator('input[name="username"]').fill(ROOT_USER.username);
    await page.locator('input[name="password"]').fill(ROOT_USER.password);
    await page.locator('input[name="confirmPassword"]').fill('different-pass');
    await page.getByTestId('setup-submit').click();
    await page.getByText('两次输入的密码不一致').waitFor();
    await page.locator('input[name="confirmPassword"]').fill(ROOT_USER.password);
    await page.getByTestId('setup-submit').click();
    await page.getByTestId('toast-success').waitFor();
    // The page reloads after 1.5 s; the initialised system sends /setup back home.
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15000 });
    await page.waitForLoadState('networkidle');
    await page.getByTestId('base-url').waitFor();
    await watched.screenshot('home');

    await watched.goto('/login');
    await page.locator('input[name="username"]').fill(ROOT_USER.username);
    await page.locator('input[name="password"]').fill(ROOT_USER.password);
    await page.getByTestId('login-submit').click();
    const modal = page.getByTestId('default-password-modal');
    await modal.waitFor();
    expect(await modal.textContent()).toContain('修改默认密码');
    await watched.screenshot('login-default-password-modal');
    await modal.getByRole('button', { name: '稍后' }).click();
    await page.waitForURL('**/token');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null')?.username)).toBe('root');
  });

  test('sign-in failure shows the server message; empty fields show the validation message', async () => {
    const { page } = watched;
    await watched.goto('/login');
    await page.getByTestId('login-submit').click();
    expect(await page.getByText('请输入用户名和密码！').count()).toBeGreaterThan(0);
    await page.locator('input[name="username"]').fill(ROOT_USER.username);
    await page.locator('input[name="password"]').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    const toast = page.getByTestId('toast-error');
    await toast.waitFor();
    expect((await toast.textContent())?.trim().length).toBeGreaterThan(0);
    expect(page.url()).toContain('/login');
    await watched.screenshot('login-failed');
  });

  test('login stores the aff query and shows the expired message', async () => {
    const { page } = watched;
    await watched.goto('/login?expired=true&aff=ABCD');
    await page.getByTestId('expired-alert').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('aff'))).toBe('ABCD');
    await watched.screenshot('login');
  });

  test('register shows validation errors, then succeeds and lands on /login', async () => {
    const { page } = watched;
    await watched.goto('/register');
    await page.locator('input[name="username"]').fill('alice');
    await page.locator('input[name="password"]').fill('short');
    await page.locator('input[name="password2"]').fill('other');
    await page.getByTestId('register-submit').click();
    await page.getByText('密码长度不得小于 8 位！').waitFor();
    await page.getByText('两次输入的密码不一致').waitFor();
    await watched.screenshot('register-validation');

    await page.locator('input[name="password"]').fill('alice-pass-1');
    await page.locator('input[name="password2"]').fill('alice-pass-1');
    await page.getByTestId('register-submit').click();
    await page.waitForURL('**/login');
    await page.getByTestId('toast-success').waitFor();
    // The URL changes before the router swaps the pages, and the register form has the same
    // input names: wait for the login form itself, or the fills can land on the old page.
    await page.getByTestId('login-submit').waitFor();

    await page.locator('input[name="username"]').fill('alice');
    await page.locator('input[name="password"]').fill('alice-pass-1');
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/token');
  });

  test('language switches to English with nothing untranslated, and back to Chinese', async () => {
    const { page } = watched;
    await watched.goto('/about');
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).not.toBe('en');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-en').click();
    await page.getByRole('heading', { name: 'About' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en');
    for (const pathname of ['/about', '/login', '/register', '/no-such-page', '/']) {
      await watched.goto(pathname);
      const text = await page.locator('body').innerText();
      expect({ pathname, cjk: text.split('\n').filter((line) => CJK.test(line) && line !== '简体中文') }).toEqual({ pathname, cjk: [] });
    }
    await watched.screenshot('home-en');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-zh').click();
    await page.getByText('开始使用').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('zh');
  });

  test('dark mode persists across a reload', async () => {
    const { page } = watched;
    await watched.goto('/about');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const before = await background();
    await page.getByTestId('theme-toggle').click();
    const stored = await page.evaluate(() => localStorage.getItem('theme-mode'));
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => localStorage.getItem('theme-mode'))).toBe(stored);
    expect(await background()).not.toBe(before);
    await page.evaluate(() => localStorage.setItem('theme-mode', 'dark'));
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await background()).toBe('rgb(11, 16, 32)');
    await watched.screenshot('about-dark');
  });

  test('about and not-found pages; deep links reload', async () => {
    const { page } = watched;
    await watched.goto('/about');
    await watched.screenshot('about');
    await watched.goto('/definitely/missing');
    await page.getByText('404').waitFor();
    await watched.screenshot('not-found');
  });

  test('an expired session lands on /login?expired=true', async () => {
    const { page, context } = watched;
    // The browser itself logs the 401 response; that one is expected here.
    watched.allow = [/status of 401/, /^HTTP 401 /];
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(ROOT_USER.username);
    await page.locator('input[name="password"]').fill(ROOT_USER.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('default-password-modal').getByRole('button').first().click();
    await page.waitForURL('**/token');
    await context.clearCookies();
    await page.goto('/user', { waitUntil: 'commit' });
    await page.waitForURL('**/login?expired=true');
    await page.getByTestId('expired-alert').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });
});
