import { generate } from 'otplib';
import type { Browser } from 'playwright-core';
import { closeSession, ROOT_USER, startConsole, WatchedPage, type TestServer } from './harness';

const USER = { username: 'dora', password: 'dora-pass-1' };

/** The code of the time step `stepsAhead` periods from now; the server accepts one period either side. */
function totp(secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });
}

/** Fills the login form; the caller waits for where it leads (the code step, /token, enrolment). */
async function submitPassword(watched: WatchedPage, username: string, password: string) {
  const { page } = watched;
  await watched.goto('/login');
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.getByTestId('login-submit').click();
}

async function enrolOnPage(watched: WatchedPage, screenshotName?: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { page } = watched;
  await page.getByTestId('two-factor-begin').click();
  await page.getByTestId('two-factor-qr').waitFor();
  const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
  await page.getByTestId('two-factor-confirm-input').fill(await totp(secret));
  await page.getByTestId('two-factor-confirm-submit').click();
  await page.getByTestId('recovery-codes').waitFor();
  const recoveryCodes = await page.getByTestId('recovery-code').allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  if (screenshotName) await watched.screenshot(screenshotName);
  await page.getByTestId('recovery-done').click();
  return { secret, recoveryCodes };
}

/** Two-factor sign-in and the session list, through the real console pages, in both languages, desktop and phone. */
describe('identity: two-factor sign-in and sessions (/personal, /login)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole({ register: [USER], signInAs: false }));
  });
  afterAll(() => closeSession({ watched, browser, server }));

  test('enrols from the personal page with the QR code and keeps the recovery codes to this one screen (zh)', async () => {
    const { page } = watched;
    await submitPassword(watched, USER.username, USER.password);
    await page.waitForURL('**/token');
    await watched.goto('/personal');
    const card = page.getByTestId('two-factor-card');
    await card.getByText('两步验证').first().waitFor();
    await expect(page.getByTestId('two-factor-state').textContent()).resolves.toBe('未启用');
    ({ secret, recoveryCodes } = await enrolOnPage(watched, 'identity-recovery-codes'));
    await page.getByTestId('two-factor-state').filter({ hasText: '已启用' }).waitFor();
    await page.getByTestId('recovery-codes-left').filter({ hasText: '剩余 10 个恢复码' }).waitFor();
    await page.getByTestId('sessions-card').getByText('已登录的设备').waitFor();
    await page.getByTestId('current-session').waitFor();
    await watched.screenshot('identity-personal');
    // Once left, the codes are gone from the page.
    await page.reload();
    await page.getByTestId('recovery-codes-left').waitFor();
    expect(await page.getByTestId('recovery-code').count()).toBe(0);
  });

  test('asks for the code after the password (zh), then lands on the token page', async () => {
    const { page } = watched;
    await watched.context.clearCookies();
    await page.evaluate(() => localStorage.removeItem('user'));
    await submitPassword(watched, USER.username, USER.password);
    await page.getByTestId('second-factor').waitFor();
    await page.getByText('请输入验证器应用中的验证码').waitFor();
    await watched.screenshot('identity-second-step');
    // The enrolment used this period's code; the next period's is accepted and new.
    await page.getByTestId('second-factor-input').fill(await totp(secret, 1));
    await page.getByTestId('second-factor-submit').click();
    await page.waitForURL('**/token');
  });

  test('on a phone, in English: a recovery code signs in, and other devices can be signed out', async () => {
    const phone = await WatchedPage.open(browser, server.baseUrl, 390);
    try {
      const { page } = phone;
      await phone.goto('/login');
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
      await submitPassword(phone, USER.username, USER.password);
      await page.getByText('Enter the code from your authenticator app').waitFor();
      await page.getByTestId('second-factor-input').fill(recoveryCodes[0]);
      await page.getByTestId('second-factor-submit').click();
      await page.waitForURL('**/token');

      await phone.goto('/personal');
      await page.getByTestId('recovery-codes-left').filter({ hasText: '9 recovery codes left' }).waitFor();
      const sessions = page.getByTestId('sessions-card');
      await sessions.getByText('Signed-in devices').waitFor();
      await sessions.getByText('This device').waitFor();
      expect(await page.getByTestId('session-row').count()).toBeGreaterThanOrEqual(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.screenshot('identity-personal-en');
      await page.getByTestId('revoke-other-sessions').click();
      await page.getByTestId('toast-success').filter({ hasText: 'All other sessions were signed out' }).waitFor();
      await page.getByTestId('session-row').nth(1).waitFor({ state: 'detached' });
      await expect(page.getByTestId('session-row').count()).resolves.toBe(1);
      phone.expectNoConsoleErrors();
    } finally {
      await phone.close();
    }
    // The desktop browser was one of the others (its 401 is expected).
    watched.allow = [/401/];
    const signedOut = await watched.page.evaluate(async () => (await fetch('/api/user/self', { headers: { 'New-Api-User': JSON.parse(localStorage.getItem('user') ?? '{}').id } })).status);
    expect(signedOut).toBe(401);
  });

  test('an administrator the setting covers is sent to enrolment and held there until done (en)', async () => {
    const { page } = watched;
    const rootLogin = await fetch(`${server.baseUrl}/api/user/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ROOT_USER) });
    const rootCookie = (rootLogin.headers.get('set-cookie') ?? '').split(';')[0];
    const rootId = String(((await rootLogin.json()) as { data: { id: number } }).data.id);
    const set = await fetch(`${server.baseUrl}/api/option/`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Cookie: rootCookie, 'New-Api-User': rootId },
      body: JSON.stringify({ key: 'TwoFactorRequirement', value: 'admins' }),
    });
    expect(((await set.json()) as { success: boolean }).success).toBe(true);

    await watched.context.clearCookies();
    await page.evaluate(() => {
      localStorage.removeItem('user');
      localStorage.setItem('i18nextLng', 'en');
    });
    await submitPassword(watched, ROOT_USER.username, ROOT_USER.password);
    const modal = page.getByTestId('default-password-modal');
    await modal.waitFor();
    await modal.getByRole('button').first().click();
    await page.waitForURL('**/two-factor-setup');
    await page.getByText('The administrator requires a second factor for your account').waitFor();
    // Every other page leads back here.
    await watched.goto('/channel');
    await page.waitForURL('**/two-factor-setup');
    await watched.screenshot('identity-enrolment-required');
    await enrolOnPage(watched);
    await page.waitForURL('**/token');
    await watched.goto('/channel');
    expect(page.url()).toContain('/channel');
  });
});
