import { generate } from 'otplib';
import type { Browser, CDPSession } from 'playwright-core';
import { closeSession, launchBrowser, loginThroughUi, registerThroughApi, ROOT_USER, setupThroughApi, startServer, WatchedPage, type TestServer } from './harness';

const DESKTOP_USER = { username: 'pia', password: 'pia-pass-1' };
const PHONE_USER = { username: 'quinn', password: 'quinn-pass-1' };

/**
 * A platform authenticator in the page's tab, through the DevTools protocol: CTAP2, built in,
 * holding discoverable credentials, verifying the user, and touched at once (no prompt).
 */
async function addVirtualAuthenticator(watched: WatchedPage): Promise<CDPSession> {
  const cdp = await watched.context.newCDPSession(watched.page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return cdp;
}

/** Leaves the console signed out, as a new visit would find it. */
async function signOut(watched: WatchedPage) {
  await watched.context.clearCookies();
  await watched.page.evaluate(() => localStorage.removeItem('user'));
}

/** Signs in through the API and returns the cookie and New-Api-User headers for further calls. */
async function apiSession(baseUrl: string, user: { username: string; password: string }): Promise<Record<string, string>> {
  const login = await fetch(`${baseUrl}/api/user/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(user) });
  const body = (await login.json()) as { data: { id: number } };
  return { 'Content-Type': 'application/json', Cookie: (login.headers.get('set-cookie') ?? '').split(';')[0], 'New-Api-User': String(body.data.id) };
}

/** Passkeys through the real console pages with a virtual authenticator: zh on a desktop, en on a phone. */
describe('passkeys (/personal, /login)', () => {
  let server: TestServer;
  /** The console at localhost: WebAuthn refuses an IP address as the relying party. */
  let consoleUrl = '';
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    server = await startServer();
    consoleUrl = server.baseUrl.replace('127.0.0.1', 'localhost');
    await setupThroughApi(server.baseUrl);
    await registerThroughApi(server.baseUrl, DESKTOP_USER);
    await registerThroughApi(server.baseUrl, PHONE_USER);
    browser = await launchBrowser();
    watched = await WatchedPage.open(browser, consoleUrl);
    await addVirtualAuthenticator(watched);
  });
  afterAll(() => closeSession({ watched, browser, server }));

  test('adds and renames a passkey on the personal page, then signs in with it alone (zh, desktop, ServerAddress unset)', async () => {
    const { page } = watched;
    await loginThroughUi(watched, DESKTOP_USER.username, DESKTOP_USER.password);
    await watched.goto('/personal');
    const card = page.getByTestId('passkeys-card');
    await card.getByText('通行密钥').first().waitFor();
    await page.getByTestId('passkeys-empty').filter({ hasText: '尚未添加通行密钥' }).waitFor();
    await page.getByTestId('passkey-add').click();
    await page.getByTestId('toast-success').filter({ hasText: '通行密钥已添加' }).waitFor();
    await page.getByTestId('passkey-row').waitFor();
    await page.getByTestId('passkey-details').filter({ hasText: '最近使用 从未' }).waitFor();

    await page.getByTestId('passkey-rename').click();
    await page.getByTestId('passkey-name-input').fill('我的笔记本');
    await page.getByTestId('passkey-rename-save').click();
    await page.getByTestId('passkey-name').filter({ hasText: '我的笔记本' }).waitFor();
    await watched.screenshot('passkeys-personal');

    await signOut(watched);
    await watched.goto('/login');
    await page.getByTestId('passkey-sign-in').filter({ hasText: '使用通行密钥登录' }).waitFor();
    await watched.screenshot('passkeys-login');
    await page.getByTestId('passkey-sign-in').click();
    await page.waitForURL('**/token');
    await watched.goto('/personal');
    await page.getByTestId('passkey-name').filter({ hasText: '我的笔记本' }).waitFor();
    expect(await page.getByTestId('passkey-details').textContent()).not.toContain('从未');
  });

  test('answers the code step after the password with the passkey (zh, desktop)', async () => {
    const { page } = watched;
    const headers = await apiSession(server.baseUrl, DESKTOP_USER);
    const setup = (await (await fetch(`${server.baseUrl}/api/user/2fa/setup`, { method: 'POST', headers })).json()) as { data: { secret: string } };
    const enabled = await fetch(`${server.baseUrl}/api/user/2fa/enable`, { method: 'POST', headers, body: JSON.stringify({ code: await generate({ secret: setup.data.secret }) }) });
    expect(((await enabled.json()) as { success: boolean }).success).toBe(true);

    await signOut(watched);
    await watched.goto('/login');
    await page.locator('input[name="username"]').fill(DESKTOP_USER.username);
    await page.locator('input[name="password"]').fill(DESKTOP_USER.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('second-factor').waitFor();
    const usePasskey = page.getByTestId('passkey-second-factor').filter({ hasText: '改用通行密钥' });
    await usePasskey.waitFor();
    await watched.screenshot('passkeys-second-step');
    await usePasskey.click();
    await page.waitForURL('**/token');
  });

  test('adds a passkey and signs in with it on a phone, in English, with ServerAddress set', async () => {
    const rootHeaders = await apiSession(server.baseUrl, ROOT_USER);
    const set = await fetch(`${server.baseUrl}/api/option/`, { method: 'PUT', headers: rootHeaders, body: JSON.stringify({ key: 'ServerAddress', value: consoleUrl }) });
    expect(((await set.json()) as { success: boolean }).success).toBe(true);

    const phone = await WatchedPage.open(browser, consoleUrl, 390);
    try {
      await addVirtualAuthenticator(phone);
      const { page } = phone;
      await phone.goto('/login');
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
      await loginThroughUi(phone, PHONE_USER.username, PHONE_USER.password);
      await phone.goto('/personal');
      await page.getByTestId('passkeys-card').getByText('Passkeys').first().waitFor();
      await page.getByTestId('passkey-add').filter({ hasText: 'Add a passkey' }).click();
      await page.getByTestId('toast-success').filter({ hasText: 'The passkey was added' }).waitFor();
      await page.getByTestId('passkey-details').filter({ hasText: 'last used never' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.screenshot('passkeys-personal-en');

      await signOut(phone);
      await phone.goto('/login');
      await page.getByTestId('passkey-sign-in').filter({ hasText: 'Sign in with a passkey' }).click();
      await page.waitForURL('**/token');
      const signedIn = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').username);
      expect(signedIn).toBe(PHONE_USER.username);

      // Deleting it leaves the list empty; the authenticator's copy then signs nobody in.
      await phone.goto('/personal');
      await page.getByTestId('passkey-delete').click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await page.getByTestId('toast-success').filter({ hasText: 'The passkey was deleted' }).waitFor();
      await page.getByTestId('passkeys-empty').waitFor();
      await signOut(phone);
      await phone.goto('/login');
      await page.getByTestId('passkey-sign-in').click();
      await page.getByTestId('toast-error').filter({ hasText: 'This passkey is not registered here' }).waitFor();
      expect(page.url()).toContain('/login');
      phone.expectNoConsoleErrors();
    } finally {
      await phone.close();
    }
  });
});
