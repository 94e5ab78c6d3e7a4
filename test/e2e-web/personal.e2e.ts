import type { Browser } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';

const USER = { username: 'carol', password: 'carol-pass-1' };

describe('personal settings (/personal)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole({ register: [USER], signInAs: USER }));
  });
  afterAll(() => closeSession({ watched, browser, server }));

  test('shows the balance card, invitation link and models; the sidebar collapse is remembered', async () => {
    const { page } = watched;
    await watched.goto('/personal');
    await page.getByTestId('balance-quota').waitFor();
    expect(await page.getByTestId('invite-link').inputValue()).toMatch(/\/register\?aff=\w+/);
    await page.getByTestId('sidebar').waitFor();
    await watched.screenshot('personal');
    await page.getByRole('button', { name: '收起侧边栏' }).click();
    await page.reload();
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: '展开侧边栏' }).click();
  });

  test('password change validates the confirmation, then succeeds', async () => {
    const { page } = watched;
    await watched.goto('/personal');
    await page.getByTestId('open-password').click();
    const dialog = page.getByTestId('password-dialog');
    await dialog.locator('input[name="original_password"]').fill(USER.password);
    await dialog.locator('input[name="password"]').fill('carol-new-pass');
    await dialog.locator('input[name="password2"]').fill('something-else');
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('两次输入的密码不一致').waitFor();
    await watched.screenshot('personal-password-dialog');
    await dialog.locator('input[name="password2"]').fill('carol-new-pass');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByTestId('toast-success').filter({ hasText: '密码修改成功' }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
  });

  test('transfer dialog enforces the minimum amount', async () => {
    const { page } = watched;
    await watched.goto('/personal');
    await page.getByTestId('open-transfer').click();
    const dialog = page.getByTestId('transfer-dialog');
    await page.getByTestId('transfer-amount').fill('1');
    await dialog.getByRole('button', { name: '划转到余额' }).click();
    await dialog.getByText('划转金额最低为 $1.00').first().waitFor();
    await watched.screenshot('personal-transfer-dialog');
    await page.getByTestId('transfer-amount').fill('500000');
    await dialog.getByRole('button', { name: '划转到余额' }).click();
    // carol has no referral rewards, so the server refuses with its own message.
    await page.getByTestId('toast-error').waitFor();
    await dialog.getByRole('button', { name: '取消' }).click();
  });

  test('access token reset shows and copies the new token', async () => {
    const { page } = watched;
    await watched.goto('/personal');
    await page.getByTestId('reset-token').click();
    const token = await page.getByTestId('access-token');
    await token.waitFor();
    expect((await token.inputValue()).length).toBeGreaterThan(10);
    await page.getByTestId('toast-success').filter({ hasText: '令牌已重置并已复制到剪贴板' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await token.inputValue());
  });

  test('notification settings reject a non-https webhook and save an https one', async () => {
    const { page } = watched;
    await watched.goto('/personal');
    await page.getByLabel('Webhook 通知').check();
    await page.getByTestId('webhook-url').fill('http://example.com/hook');
    await page.getByTestId('save-notify').click();
    await page.getByText('Webhook 地址必须以 https:// 开头').waitFor();
    await watched.screenshot('personal-notifications');
    await page.getByTestId('webhook-url').fill('https://example.com/hook');
    await page.getByTestId('save-notify').click();
    await page.getByTestId('toast-success').filter({ hasText: '通知设置已更新' }).waitFor();
    await page.getByTestId('tab-price').click();
    await page.getByRole('columnheader', { name: '倍率' }).waitFor();
  });

  test('account deletion requires typing the username', async () => {
    const { page } = watched;
    await watched.goto('/personal');
    await page.getByTestId('open-delete-account').click();
    const dialog = page.getByTestId('delete-account-dialog');
    await dialog.locator('input[name="confirmation"]').fill('not-carol');
    await dialog.getByRole('button', { name: '确认删除' }).click();
    await dialog.getByText('请输入你的账户名以确认删除！').waitFor();
    await watched.screenshot('personal-delete-dialog');
    await dialog.locator('input[name="confirmation"]').fill(USER.username);
    await dialog.getByRole('button', { name: '确认删除' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });
});
