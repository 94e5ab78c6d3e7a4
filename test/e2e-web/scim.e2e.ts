import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { closeSession, SCREENSHOT_DIR, startConsole, WatchedPage, type TestServer } from './harness';
import { expectToast } from './operations-helpers';

/** What an identity provider gets back from the gateway's SCIM endpoint with a token. */
async function scimStatus(baseUrl: string, token: string): Promise<number> {
  const response = await fetch(`${baseUrl}/scim/v2/ServiceProviderConfig`, { headers: { authorization: `Bearer ${token}` } });
  return response.status;
}

/** Makes a token through the card and answers what the card showed, once. */
async function createToken(page: Page, name: string): Promise<string> {
  const card = page.getByTestId('system-scim');
  await card.getByTestId('scim-token-name').fill(name);
  await card.getByTestId('scim-create').click();
  const shown = card.getByTestId('scim-token-value');
  await shown.waitFor();
  return ((await shown.textContent()) ?? '').trim();
}

/** The system tab's SCIM card: the endpoint, a token shown once, its use, and its revocation; zh and en, desktop and phone. */
describe('SCIM provisioning card (/setting, system tab)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole());
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
  });

  test('root makes a token that is shown once and works, then revokes it (zh, desktop)', async () => {
    const { page } = watched;
    await watched.goto('/setting?tab=system');
    const card = page.getByTestId('system-scim');
    await card.getByText('SCIM 用户同步').waitFor();
    expect(await card.getByTestId('scim-endpoint').locator('input').inputValue()).toBe(`${server.baseUrl}/scim/v2`);
    await card.getByTestId('scim-no-tokens').waitFor();

    // A blank name is refused in the form, before any call.
    await card.getByTestId('scim-create').click();
    await card.getByText('请填写名称（最多 64 个字符）').waitFor();

    const token = await createToken(page, 'Okta');
    expect(token).toMatch(/^scim_[A-Za-z0-9]{40}$/);
    await card.getByText('令牌“Okta”只显示这一次').waitFor();
    expect(await scimStatus(server.baseUrl, token)).toBe(200);
    await watched.screenshot('scim-token-zh');
    await card.screenshot({ path: path.join(SCREENSHOT_DIR, 'scim-card-zh-desktop.png') });

    await card.getByTestId('scim-token-saved').click();
    await card.getByTestId('scim-new-token').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('system-scim').getByTestId('scim-token-row').waitFor();
    const row = page.getByTestId('system-scim').getByTestId('scim-token-row');
    expect(await row.textContent()).toContain('Okta');
    expect(await row.textContent()).not.toContain('从未使用');
    expect((await page.locator('body').textContent()) ?? '').not.toContain(token);

    await row.getByTestId('scim-revoke').click();
    await page.getByRole('dialog').getByText('吊销 SCIM 令牌？').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '吊销' }).click();
    await expectToast(page, 'success', 'SCIM 令牌已吊销');
    await page.getByTestId('system-scim').getByTestId('scim-no-tokens').waitFor();
    expect(await scimStatus(server.baseUrl, token)).toBe(401);
  });

  test('in English, and on a phone the card fits the screen', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await watched.goto('/setting?tab=system');
    const card = page.getByTestId('system-scim');
    await card.getByText('SCIM provisioning').waitFor();
    await card.getByTestId('scim-create').click();
    await card.getByText('Name the token (at most 64 characters)').waitFor();
    const token = await createToken(page, 'Entra ID');
    await card.getByText('The token "Entra ID" is shown only this once').waitFor();
    await card.getByTestId('scim-token-saved').click();
    await card.getByText('never').waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    await card.getByTestId('scim-token-row').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await card.getByTestId('scim-create').boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    await card.screenshot({ path: path.join(SCREENSHOT_DIR, 'scim-card-en-mobile.png') });
    await page.setViewportSize({ width: 1280, height: 860 });
    await watched.screenshot('scim-en');
    expect((await page.locator('body').textContent()) ?? '').not.toContain(token);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });
});
