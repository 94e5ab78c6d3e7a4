import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { closeSession, loginThroughUi, ROOT_USER, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage, expectToast } from './operations-helpers';
import { openScratchDb } from './scratch-db';

/** The version the test server reports, and the release the listing below announces (changed by the tests). */
const CURRENT_VERSION = '1.2.3';
let latestTag = `v${CURRENT_VERSION}`;

/** A release listing on loopback, answering like GitHub's releases/latest (with CORS, as GitHub does). */
async function startReleaseListing(): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
    response.end(JSON.stringify({ tag_name: latestTag, body: '## What changed\n\n- faster relays', html_url: `https://example.invalid/releases/${latestTag}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases/latest`, server };
}

const DAY = 86400;

const toast = expectToast;

/** The input of a react-hook-form field by its name (option keys with dots are form paths). */
const field = (page: Page, name: string) => page.locator(`[name="${name}"]`);

async function openTab(watched: WatchedPage, tab: string) {
  await watched.goto(`/setting?tab=${tab}`);
  await watched.page.getByTestId(`settings-tab-${tab}`).waitFor();
}

describe('settings page (/setting)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let releases: { url: string; server: Server };

  beforeAll(async () => {
    releases = await startReleaseListing();
    process.env.RELEASES_URL = releases.url;
    process.env.APP_VERSION = CURRENT_VERSION;
    ({ server, browser, watched } = await startConsole());
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
    releases.server.close();
  });

  test('every tab loads with its sections; the sidebar leads to the page', async () => {
    const { page } = watched;
    await watched.goto('/token');
    await page.getByTestId('sidebar').getByText('系统设置').click();
    await page.waitForURL('**/setting');
    for (const id of ['general', 'drawing', 'monitoring', 'sensitive', 'dashboard', 'chats', 'groups']) await page.getByTestId(`settings-${id}`).waitFor();
    // Stored defaults are shown: quota per unit, the dashboard interval, the spec's default log-clearing date.
    expect(await field(page, 'QuotaPerUnit').inputValue()).toBe('500000');
    expect(await field(page, 'DataExportInterval').inputValue()).toBe('5');
    const monthAgo = new Date();
    monthAgo.setMonth(monthAgo.getMonth() - 1);
    expect(await page.getByTestId('log-clear-date').inputValue()).toBe(
      `${monthAgo.getFullYear()}-${String(monthAgo.getMonth() + 1).padStart(2, '0')}-${String(monthAgo.getDate()).padStart(2, '0')}`,
    );
    await watched.screenshot('settings-operation');

    await page.getByTestId('settings-tab-ratelimit').click();
    await page.getByTestId('settings-ratelimit').waitFor();
    expect(page.url()).toContain('tab=ratelimit');
    expect(await field(page, 'ModelRequestRateLimitSuccessCount').inputValue()).toBe('1000');
    await watched.screenshot('settings-ratelimit');

    await page.getByTestId('settings-tab-models').click();
    for (const id of ['global', 'gemini', 'claude']) await page.getByTestId(`settings-models-${id}`).waitFor();
    expect(await field(page, 'claude.thinking_adapter_budget_tokens_percentage').inputValue()).toBe('0.8');
    expect(await field(page, 'gemini.version_settings').inputValue()).toContain('v1beta');
    await watched.screenshot('settings-models');

    await page.getByTestId('settings-tab-system').click();
    expect(page.url()).toContain('tab=system');

    await page.getByTestId('settings-tab-other').click();
    for (const id of ['notice', 'systemName', 'logo', 'homePage', 'about', 'footer', 'version']) await page.getByTestId(`settings-other-${id}`).waitFor();
    await watched.screenshot('settings-other');
  });

  test('a change saves and survives a reload; saving again says nothing changed', async () => {
    const { page } = watched;
    await openTab(watched, 'operation');
    const general = page.getByTestId('settings-general');
    await field(page, 'RetryTimes').fill('3');
    await general.getByText('默认折叠侧边栏').click();
    await general.getByRole('button', { name: /保存/ }).click();
    await toast(page, 'success', '保存成功');

    await general.getByRole('button', { name: /保存/ }).click();
    await toast(page, 'info', '你似乎并没有修改什么');

    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await field(page, 'RetryTimes').inputValue()).toBe('3');
    expect(await field(page, 'DefaultCollapseSidebar').isChecked()).toBe(true);
    // The server holds exactly the keys that were sent, booleans as "true"/"false".
    const options = await apiFromPage<{ key: string; value: string }[]>(page, 'GET', '/api/option/');
    const stored = Object.fromEntries(options.data.map((option) => [option.key, option.value]));
    expect(stored).toMatchObject({ RetryTimes: '3', DefaultCollapseSidebar: 'true', QuotaPerUnit: '500000' });

    // The routing settings sit with monitoring: session affinity's TTL and the breaker.
    const monitoring = page.getByTestId('settings-monitoring');
    expect(await field(page, 'ChannelAffinityTTLSeconds').inputValue()).toBe('300');
    await field(page, 'ChannelAffinityTTLSeconds').fill('600');
    await field(page, 'ChannelBreakerFailures').fill('0');
    await monitoring.getByRole('button', { name: /保存/ }).click();
    await toast(page, 'success', '保存成功');
    const routing = Object.fromEntries((await apiFromPage<{ key: string; value: string }[]>(page, 'GET', '/api/option/')).data.map((option) => [option.key, option.value]));
    expect(routing).toMatchObject({ ChannelAffinityTTLSeconds: '600', ChannelBreakerFailures: '0', ChannelHealthBalancingEnabled: 'true' });

    // Other tabs save the same way.
    await openTab(watched, 'ratelimit');
    await page.getByTestId('settings-ratelimit').getByText('启用用户模型请求速率限制', { exact: false }).click();
    await field(page, 'ModelRequestRateLimitCount').fill('60');
    await page.getByTestId('settings-ratelimit').getByRole('button', { name: /保存/ }).click();
    await toast(page, 'success', '保存成功');
    await openTab(watched, 'models');
    await field(page, 'claude.thinking_adapter_budget_tokens_percentage').fill('0.5');
    await page.getByTestId('settings-models-claude').getByRole('button', { name: /保存/ }).click();
    await toast(page, 'success', '保存成功');
    await openTab(watched, 'other');
    await field(page, 'SystemName').fill('Settings Test Gateway');
    await page.getByTestId('settings-other-systemName').getByRole('button', { name: /保存/ }).click();
    await toast(page, 'success', '系统名称已更新');
    // The shell picks the published name up at once.
    await page.getByRole('banner').getByText('Settings Test Gateway').waitFor();

    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await field(page, 'SystemName').inputValue()).toBe('Settings Test Gateway');
    await openTab(watched, 'ratelimit');
    expect(await field(page, 'ModelRequestRateLimitEnabled').isChecked()).toBe(true);
    expect(await field(page, 'ModelRequestRateLimitCount').inputValue()).toBe('60');
    await openTab(watched, 'models');
    expect(await field(page, 'claude.thinking_adapter_budget_tokens_percentage').inputValue()).toBe('0.5');
  });

  test('one refused key among several changes gives the partial-failure message naming it', async () => {
    const { page } = watched;
    await openTab(watched, 'operation');
    const general = page.getByTestId('settings-general');
    // Far above the server's bound for quota grants; the form only checks the spec's minimum.
    await field(page, 'QuotaForNewUser').fill('100000000000000000000');
    await field(page, 'RetryTimes').fill('5');
    await general.getByRole('button', { name: /保存/ }).click();
    await toast(page, 'error', /部分保存失败.*QuotaForNewUser/);
    // The refused value stays in the form for correction; the accepted one is stored.
    expect(await field(page, 'QuotaForNewUser').inputValue()).toBe('100000000000000000000');
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await field(page, 'RetryTimes').inputValue()).toBe('5');
    expect(await field(page, 'QuotaForNewUser').inputValue()).toBe('0');

    // All refused: the plain failure message.
    await field(page, 'QuotaForNewUser').fill('100000000000000000000');
    await general.getByRole('button', { name: /保存/ }).click();
    await toast(page, 'error', /^保存失败，请重试.*QuotaForNewUser/);
  });

  test('JSON fields are checked on blur and block the save', async () => {
    const { page } = watched;
    await openTab(watched, 'operation');
    const chats = page.getByTestId('settings-chats');
    await field(page, 'Chats').fill('[{"broken": ');
    await field(page, 'Chats').blur();
    await chats.getByText('不是合法的 JSON 字符串').waitFor();
    await chats.getByRole('button', { name: /保存/ }).click();
    await toast(page, 'error', '请检查输入');
    await field(page, 'Chats').fill('[{"Test Chat": "https://chat.example/?key={key}"}]');
    await field(page, 'Chats').blur();
    await chats.getByText('不是合法的 JSON 字符串').waitFor({ state: 'detached' });
    await chats.getByRole('button', { name: /保存/ }).click();
    await toast(page, 'success', '保存成功');
  });

  test('Save pressed straight after typing a bad value asks to check the input, though the blur check moves the button', async () => {
    const { page } = watched;
    await openTab(watched, 'operation');
    const general = page.getByTestId('settings-general');
    // QuotaPerUnit's two-line hint gives way to a one-line error on blur, which lifts the Save button.
    await field(page, 'QuotaPerUnit').fill('0.5');
    await general.getByRole('button', { name: /保存/ }).click();
    await toast(page, 'error', '请检查输入');
    await general.getByText('不能小于 1').waitFor();
    await field(page, 'QuotaPerUnit').fill('500000');
    await general.getByRole('button', { name: /保存/ }).click();
    await toast(page, 'info', '你似乎并没有修改什么');
  });

  test('an unsaved edit survives a look at another tab', async () => {
    const { page } = watched;
    await openTab(watched, 'operation');
    await field(page, 'TopUpLink').fill('https://topup.example/unsaved');
    await page.getByTestId('settings-tab-models').click();
    await page.getByTestId('settings-models-claude').waitFor();
    await page.getByTestId('settings-tab-operation').click();
    expect(await field(page, 'TopUpLink').inputValue()).toBe('https://topup.example/unsaved');
    await field(page, 'TopUpLink').fill('');
  });

  test('clearing logs by date deletes the older rows after a confirmation', async () => {
    const { page } = watched;
    const db = openScratchDb(server.dbPath);
    const now = Math.floor(Date.now() / 1000);
    const insert = db.prepare("INSERT INTO logs (user_id, created_at, type, content) VALUES (1, ?, 2, 'seeded')");
    for (const age of [90, 60, 45]) insert.run(now - age * DAY);
    insert.run(now - DAY);
    db.close();

    await openTab(watched, 'operation');
    const section = page.getByTestId('settings-sensitive');
    await page.getByTestId('log-clear-date').fill('');
    await section.getByRole('button', { name: '清除历史日志' }).click();
    await section.getByText('请选择日志记录时间').waitFor();
    const monthAgo = new Date(Date.now() - 30 * DAY * 1000);
    await page.getByTestId('log-clear-date').fill(monthAgo.toISOString().slice(0, 10));
    await section.getByRole('button', { name: '清除历史日志' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '清除历史日志' }).click();
    await toast(page, 'success', '已清理 3 条日志');
    const left = openScratchDb(server.dbPath);
    expect(left.prepare("SELECT COUNT(*) AS n FROM logs WHERE content = 'seeded'").all()[0].n).toBe(1);
    left.close();
  });

  test('the update check says up to date, shows a newer release, and fails quietly when the listing is unreachable', async () => {
    const { page } = watched;
    await openTab(watched, 'other');
    const version = page.getByTestId('settings-other-version');
    await version.getByText(`当前版本：${CURRENT_VERSION}`).waitFor();
    await version.getByRole('button', { name: '检查更新' }).click();
    await toast(page, 'info', '已是最新版本');

    latestTag = 'v9.9.9';
    await version.getByRole('button', { name: '检查更新' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('发现新版本：v9.9.9').waitFor();
    await dialog.getByText('faster relays').waitFor();
    await dialog.getByRole('button', { name: '关闭' }).click();

    await new Promise<void>((resolve) => releases.server.close(() => resolve()));
    releases.server.closeAllConnections();
    watched.allow.push(/ERR_CONNECTION_REFUSED/);
    await version.getByRole('button', { name: '检查更新' }).click();
    await toast(page, 'error', '检查更新失败，请稍后重试');
  });

  test('English: tabs, labels and messages are translated', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await openTab(watched, 'operation');
    await page.getByTestId('settings-tab-ratelimit').getByText('Rate limits').waitFor();
    await page.getByTestId('settings-general').getByRole('heading', { name: 'General and quota' }).waitFor();
    // 0 is no queue at all (the relay pauses the upstream at once), not "unlimited".
    await page.getByTestId('settings-general').getByText("0 pauses it as soon as the client's buffer is full").waitFor();
    expect(await page.getByTestId('settings-general').textContent()).not.toContain('unlimited');
    await page.getByTestId('settings-monitoring').getByRole('button', { name: /Save/ }).click();
    await toast(page, 'info', "You don't seem to have changed anything");
    await field(page, 'QuotaForInviter').fill('100000000000000000000');
    await field(page, 'QuotaForInvitee').fill('10');
    await page.getByTestId('settings-general').getByRole('button', { name: /Save/ }).click();
    await toast(page, 'error', /Some settings were not saved.*QuotaForInviter/);
    await watched.screenshot('settings-operation-en');
    // Every other tab renders in English too (a missing key would be a console error).
    for (const [tab, heading] of [
      ['ratelimit', 'Model request rate limit'],
      ['models', 'Claude'],
      ['other', 'Version'],
    ]) {
      await page.getByTestId(`settings-tab-${tab}`).click();
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });

  test('an administrator who is not root gets every tab but system, and saves non-root settings', async () => {
    const created = await apiFromPage(watched.page, 'POST', '/api/user/', { username: 'ops', password: 'ops-pass-123', role: 10 });
    expect(created.success).toBe(true);
    const admin = await WatchedPage.open(browser, server.baseUrl);
    try {
      await loginThroughUi(admin, 'ops', 'ops-pass-123');
      const { page } = admin;
      await admin.goto('/setting?tab=system');
      await page.getByTestId('settings-general').waitFor();
      expect(await page.getByTestId('settings-tab-system').count()).toBe(0);
      for (const tab of ['operation', 'ratelimit', 'models', 'other']) await page.getByTestId(`settings-tab-${tab}`).waitFor();
      // Turning the dashboard on shows its sidebar entry without a reload (the sidebar may be collapsed: an earlier test set the default).
      const dashboardEntry = page.getByTestId('sidebar').locator('a[href="/detail"]');
      expect(await dashboardEntry.count()).toBe(0);
      await page.getByTestId('settings-dashboard').getByText('启用数据看板').click();
      await page.getByTestId('settings-dashboard').getByRole('button', { name: /保存/ }).click();
      await toast(page, 'success', '保存成功');
      await dashboardEntry.waitFor({ state: 'attached' });
      admin.expectNoConsoleErrors();
    } finally {
      await admin.close();
    }
  });

  test('a user who is not an administrator opens /setting and is pointed to the personal page, with no tab', async () => {
    const created = await apiFromPage(watched.page, 'POST', '/api/user/', { username: 'plainuser', password: 'plain-pass-123' });
    expect(created.success).toBe(true);
    const user = await WatchedPage.open(browser, server.baseUrl);
    try {
      await loginThroughUi(user, 'plainuser', 'plain-pass-123');
      await user.goto('/setting');
      await user.page.getByTestId('settings-not-admin').waitFor();
      expect(await user.page.getByTestId('settings-tab-operation').count()).toBe(0);
      await user.page.getByTestId('settings-not-admin').getByRole('link').click();
      await user.page.waitForURL(/\/personal$/);
      user.expectNoConsoleErrors();
    } finally {
      await user.close();
    }
  });

  test('phone width: tabs scroll, fields stack, and saving works', async () => {
    const phone = await WatchedPage.open(browser, server.baseUrl, 390);
    try {
      await loginThroughUi(phone, ROOT_USER.username, ROOT_USER.password);
      const { page } = phone;
      await openTab(phone, 'ratelimit');
      await field(page, 'ModelRequestRateLimitSuccessCount').fill('500');
      await page.getByTestId('settings-ratelimit').getByRole('button', { name: /保存/ }).click();
      await toast(page, 'success', '保存成功');
      // Nothing overflows the viewport sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.getByTestId('settings-tab-other').click();
      await page.getByTestId('settings-other-version').waitFor();
      await openTab(phone, 'operation');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const box = await field(page, 'QuotaPerUnit').boundingBox();
      expect(box && box.width).toBeGreaterThan(250);
      phone.expectNoConsoleErrors();
    } finally {
      await phone.close();
    }
  });
});
