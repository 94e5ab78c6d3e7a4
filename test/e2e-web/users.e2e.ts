import type { Browser, Page } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';

async function rowIdFor(page: Page, username: string): Promise<string> {
  const row = page.locator('tr[data-testid^="user-row-"]', { hasText: username });
  await row.waitFor();
  return (await row.getAttribute('data-testid'))!.replace('user-row-', '');
}

describe('user management (/user)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole());
  });
  afterAll(() => closeSession({ watched, browser, server }));

  test('add a user with validation, then find it by keyword and by group', async () => {
    const { page } = watched;
    await watched.goto('/user');
    await page.getByTestId('add-user').click();
    const drawer = page.getByTestId('add-user-drawer');
    await drawer.getByRole('button', { name: '提交' }).click();
    expect(await drawer.getByText('用户名和密码不能为空！').count()).toBe(2);
    await watched.screenshot('users-add-drawer');
    await drawer.locator('input[name="username"]').fill('bob');
    await drawer.locator('input[name="display_name"]').fill('Bob Builder');
    await drawer.locator('input[name="password"]').fill('bob-pass-123');
    await drawer.getByRole('button', { name: '提交' }).click();
    await page.getByTestId('toast-success').filter({ hasText: '用户账户创建成功' }).waitFor();
    await drawer.waitFor({ state: 'hidden' });

    await page.getByTestId('user-search-keyword').fill('bob');
    await page.getByTestId('user-search-submit').click();
    await page.locator('tr[data-testid^="user-row-"]', { hasText: 'bob' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('tr[data-testid^="user-row-"]').count()).toBe(1);

    await page.getByTestId('user-search-keyword').fill('');
    await page.getByTestId('user-search-group').click();
    await page.getByRole('option', { name: 'default' }).click();
    await page.getByTestId('user-search-submit').click();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('tr[data-testid^="user-row-"]', { hasText: 'bob' }).count()).toBe(1);
    await watched.screenshot('users');
  });

  test('edit quota through the add-quota dialog', async () => {
    const { page } = watched;
    await watched.goto('/user');
    const id = await rowIdFor(page, 'bob');
    await page.getByTestId(`action-edit-${id}`).click();
    const drawer = page.getByTestId('edit-user-drawer');
    await drawer.locator('input[name="username"]').waitFor();
    await drawer.getByRole('button', { name: '添加额度' }).click();
    await page.getByTestId('add-quota-amount').fill('1000000');
    expect(await page.getByTestId('add-quota-result').textContent()).toContain('1000000');
    await page.getByRole('dialog', { name: '添加额度' }).getByRole('button', { name: '确定' }).click();
    expect(await drawer.locator('input[name="quota"]').inputValue()).toBe('1000000');
    await drawer.locator('input[name="password"]').fill('short');
    await drawer.getByRole('button', { name: '保存' }).click();
    await drawer.getByText('密码长度不得小于 8 位！').waitFor();
    await watched.screenshot('users-edit-drawer');
    await drawer.locator('input[name="password"]').fill('');
    await drawer.getByRole('button', { name: '保存' }).click();
    await page.getByTestId('toast-success').filter({ hasText: '用户信息更新成功' }).waitFor();
    // The table reloads after the save; wait for the new figure rather than for the network to go quiet.
    await page.getByTestId(`user-quota-${id}`).filter({ hasText: '$2.00' }).waitFor();
  });

  test('promote, demote, disable, enable and delete follow the role rules', async () => {
    const { page } = watched;
    await watched.goto('/user');
    const rootId = await rowIdFor(page, 'root');
    for (const action of ['promote', 'demote', 'disable', 'delete']) {
      expect(await page.getByTestId(`action-${action}-${rootId}`).isDisabled()).toBe(true);
    }

    const id = await rowIdFor(page, 'bob');
    const role = page.getByTestId(`user-role-${id}`);
    const status = page.getByTestId(`user-status-${id}`);
    expect(await page.getByTestId(`action-demote-${id}`).isDisabled()).toBe(true);

    await page.getByTestId(`action-promote-${id}`).click();
    await role.getByText('管理员').waitFor();
    expect(await page.getByTestId(`action-promote-${id}`).isDisabled()).toBe(true);
    await page.getByTestId(`action-demote-${id}`).click();
    await role.getByText('普通用户').waitFor();

    await page.getByTestId(`action-disable-${id}`).click();
    await status.getByText('已封禁').waitFor();
    expect(await page.getByTestId(`action-disable-${id}`).count()).toBe(0);
    await page.getByTestId(`action-enable-${id}`).click();
    await status.getByText('已激活').waitFor();

    await page.getByTestId(`action-delete-${id}`).click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await status.getByText('注销').waitFor();
    expect(await page.locator(`[data-testid$="-${id}"][data-testid^="action-"]`).count()).toBe(0);
    await watched.screenshot('users-after-actions');
  });

  test('page size choice is stored under page-size', async () => {
    const { page } = watched;
    await watched.goto('/user');
    await page.getByRole('combobox', { name: /每页条数/ }).click();
    await page.getByRole('option', { name: '20' }).click();
    expect(await page.evaluate(() => localStorage.getItem('page-size'))).toBe('20');
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('combobox', { name: /每页条数/ }).textContent()).toContain('20');
  });
});
