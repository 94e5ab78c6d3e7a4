import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage, expectToast } from './operations-helpers';

interface PricingRow {
  model_name: string;
  quota_type: number;
  model_ratio: number;
  completion_ratio: number;
  model_price: number;
}

/** The models the test channel serves; none of them has a shipped price. */
const PRICED = 'e2e-visual-model';
const UNPRICED = ['e2e-unpriced-a', 'e2e-unpriced-b'];
const TELEGRAM_TOKEN = '987654:e2e-telegram-bot-token';

/** What anyone reading the public pricing page sees for a model. */
async function publicPrice(server: TestServer, model: string): Promise<PricingRow | undefined> {
  const body = (await (await fetch(`${server.baseUrl}/api/pricing`)).json()) as { data: PricingRow[] };
  return body.data.find((row) => row.model_name === model);
}

/** A Telegram login widget answer signed with the bot token, as Telegram signs it. */
function telegramLogin(botToken: string, id: string): string {
  const fields: Record<string, string> = { id, first_name: 'Tele', username: 'tele_e2e', auth_date: String(Math.floor(Date.now() / 1000)) };
  const checkString = Object.keys(fields)
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(botToken).digest()).update(checkString).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

/** An OpenID provider's discovery document on loopback, readable from the console's origin. */
async function startDiscoveryServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const base = `http://${req.headers.host}`;
    res.writeHead(req.url === '/.well-known/openid-configuration' ? 200 : 404, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
    res.end(JSON.stringify({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, userinfo_endpoint: `${base}/userinfo` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function openPricing(watched: WatchedPage, subTab: 'json' | 'visual' | 'unpriced') {
  await watched.goto('/setting?tab=operation');
  const tab = watched.page.getByTestId(`pricing-tab-${subTab}`);
  await tab.scrollIntoViewIfNeeded();
  await tab.click();
}

function saveButton(page: Page, sectionTestId: string) {
  return page.getByTestId(sectionTestId).getByRole('button', { name: /^保存|^Save/ });
}

describe('settings: pricing area and system tab (/setting)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let discovery: Awaited<ReturnType<typeof startDiscoveryServer>>;

  beforeAll(async () => {
    discovery = await startDiscoveryServer();
    ({ server, browser, watched } = await startConsole());
    const created = await apiFromPage(watched.page, 'POST', '/api/channel/', { name: 'e2e-pricing', type: 1, key: 'sk-e2e', models: [PRICED, ...UNPRICED].join(','), group: 'default' });
    expect(created.success).toBe(true);
  });
  afterAll(async () => {
    await discovery?.close();
    await closeSession({ watched, browser, server });
  });

  test('the visual table editor adds, changes and deletes a price, and /api/pricing follows', async () => {
    const { page } = watched;
    await openPricing(watched, 'visual');
    await page.getByTestId('pricing-visual-table').waitFor();
    expect(await publicPrice(server, PRICED)).toMatchObject({ quota_type: 0, model_ratio: 37.5 });

    // Price per million tokens is converted: ratio = input / 2, completion = output / input.
    await page.getByTestId('pricing-visual-add').click();
    const dialog = page.getByTestId('pricing-row-dialog');
    await page.getByTestId('pricing-row-name').fill(PRICED);
    await dialog.getByText('按量计费：每百万 tokens 价格').click();
    await page.getByTestId('pricing-row-input-price').fill('3');
    await page.getByTestId('pricing-row-output-price').fill('abc');
    await page.getByTestId('pricing-row-submit').click();
    await dialog.getByText('请输入数字').waitFor();
    await page.getByTestId('pricing-row-output-price').fill('15');
    await page.getByTestId('pricing-row-converted').filter({ hasText: '模型倍率 1.5，补全倍率 5' }).waitFor();
    await page.getByTestId('pricing-row-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('pricing-visual-unsaved').waitFor();
    // The new row is at the front of the table.
    await expect(page.locator('tr[data-testid^="pricing-visual-row-"]').first().getAttribute('data-testid')).resolves.toBe(`pricing-visual-row-${PRICED}`);
    await watched.screenshot('settings-pricing-visual');
    await page.getByTestId('pricing-visual-save').click();
    await expectToast(page, 'success', '保存成功');
    expect(await publicPrice(server, PRICED)).toMatchObject({ quota_type: 0, model_ratio: 1.5, completion_ratio: 5 });

    // A duplicate name is refused on add.
    await page.getByTestId('pricing-visual-add').click();
    await page.getByTestId('pricing-row-name').fill(PRICED);
    await page.getByTestId('pricing-row-submit').click();
    await dialog.getByText('模型名称已存在').waitFor();
    await dialog.getByRole('button', { name: '取消' }).click();

    // Search narrows the table case-insensitively; switching to a fixed price clears the ratios.
    await page.getByTestId('pricing-visual-search').fill(PRICED.toUpperCase());
    expect(await page.locator('tr[data-testid^="pricing-visual-row-"]').count()).toBe(1);
    await page.getByTestId(`pricing-visual-edit-${PRICED}`).click();
    await dialog.getByText('按次计费：固定价格').click();
    await page.getByTestId('pricing-row-price').fill('0');
    await page.getByTestId('pricing-row-submit').click();
    await dialog.getByText('价格不能为 0').waitFor();
    await page.getByTestId('pricing-row-price').fill('0.02');
    await page.getByTestId('pricing-row-submit').click();
    await page.getByTestId('pricing-visual-save').click();
    await expectToast(page, 'success', '保存成功');
    expect(await publicPrice(server, PRICED)).toMatchObject({ quota_type: 1, model_price: 0.02 });
    const ratios = await apiFromPage<{ key: string; value: string }[]>(page, 'GET', '/api/option/');
    expect(JSON.parse(ratios.data.find((option) => option.key === 'ModelRatio')!.value)).not.toHaveProperty(PRICED);

    await page.getByTestId(`pricing-visual-delete-${PRICED}`).click();
    await page.getByTestId('pricing-visual-save').click();
    await expectToast(page, 'success', '保存成功');
    expect(await publicPrice(server, PRICED)).toMatchObject({ quota_type: 0, model_ratio: 37.5 });
  });

  test('unpriced models are batch-filled and /api/pricing then prices them', async () => {
    const { page } = watched;
    await openPricing(watched, 'unpriced');
    for (const model of [PRICED, ...UNPRICED]) await page.getByTestId(`pricing-unpriced-row-${model}`).waitFor();
    await page.getByTestId('pricing-unpriced-batch').click();
    await expectToast(page, 'warning', '请先选择模型');

    for (const model of UNPRICED) await page.getByTestId(`pricing-unpriced-select-${model}`).click();
    await page.getByTestId('pricing-unpriced-batch').click();
    const batch = page.getByTestId('pricing-batch-dialog');
    await batch.getByRole('combobox').click();
    await page.getByRole('option', { name: '模型倍率和补全倍率' }).click();
    await page.getByTestId('pricing-batch-value').fill('2');
    await page.getByTestId('pricing-batch-apply').click();
    await batch.getByText('两个倍率都需要填写数字').waitFor();
    await page.getByTestId('pricing-batch-second').fill('4');
    await page.getByTestId('pricing-batch-apply').click();
    await page.getByTestId('pricing-batch-dialog').waitFor({ state: 'hidden' });
    await watched.screenshot('settings-pricing-unpriced');
    await page.getByTestId('pricing-unpriced-save').click();
    await expectToast(page, 'success', '保存成功');

    for (const model of UNPRICED) {
      expect(await publicPrice(server, model)).toMatchObject({ quota_type: 0, model_ratio: 2, completion_ratio: 4 });
      await page.getByTestId(`pricing-unpriced-row-${model}`).waitFor({ state: 'detached' });
    }
    await page.getByTestId(`pricing-unpriced-row-${PRICED}`).waitFor();
  });

  test('the JSON editors check JSON on blur; reset to default ratios asks first', async () => {
    const { page } = watched;
    await openPricing(watched, 'json');
    const modelPrice = page.locator('textarea[name="ModelPrice"]');
    await modelPrice.fill('{"broken": ');
    await modelPrice.blur();
    await page.getByTestId('pricing-json-section').getByText('不是合法的 JSON 字符串').waitFor();
    await saveButton(page, 'pricing-json-section').click();
    await expectToast(page, 'error', '请检查输入');

    await page.getByTestId('pricing-reset').click();
    await page.getByRole('dialog').getByText('确定重置所有模型价格？').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '重置为默认倍率' }).click();
    await expectToast(page, 'success', '模型倍率已重置为默认值');
    expect(await modelPrice.inputValue()).not.toContain('broken');
    expect(await publicPrice(server, UNPRICED[0])).toMatchObject({ model_ratio: 37.5 });
    await saveButton(page, 'pricing-json-section').click();
    await expectToast(page, 'info', '你似乎并没有修改什么');
  });

  test('a table save sends only the maps it wrote; removing the last row of the last page shows the page before', async () => {
    const { page } = watched;
    // Eleven models the search below finds: ten on the first page, one on the second.
    const pageModels = Array.from({ length: 11 }, (_, i) => `e2e-page-${String(i).padStart(2, '0')}`);
    const stored = await apiFromPage<{ key: string; value: string }[]>(page, 'GET', '/api/option/');
    const storedValue = (key: string) => stored.data.find((option) => option.key === key)!.value;
    const ratios = { ...JSON.parse(storedValue('ModelRatio')), ...Object.fromEntries(pageModels.map((name) => [name, 1])) };
    expect((await apiFromPage(page, 'PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) })).success).toBe(true);

    // A half-typed edit on the JSON sub-tab, never saved.
    await openPricing(watched, 'json');
    await page.locator('textarea[name="CacheRatio"]').fill('{"e2e-unsent": ');
    await page.getByTestId('pricing-tab-visual').click();
    await page.getByTestId('pricing-visual-search').fill('e2e-page');
    await page.getByTestId('table-pagination').getByRole('button', { name: '下一页' }).click();
    await page.getByTestId('table-pagination').getByText('第 11–11 条，共 11 条').waitFor();
    await page.getByTestId('pricing-visual-delete-e2e-page-10').click();
    // Back on the first page, not on an empty second one.
    await page.getByTestId('table-pagination').getByText('第 1–10 条，共 10 条').waitFor();
    expect(await page.locator('tr[data-testid^="pricing-visual-row-"]').count()).toBe(10);

    const puts: string[] = [];
    const onRequest = (request: { method: () => string; url: () => string; postData: () => string | null }) => {
      if (request.method() === 'PUT' && request.url().endsWith('/api/option/')) puts.push((JSON.parse(request.postData() ?? '{}') as { key: string }).key);
    };
    page.on('request', onRequest);
    await page.getByTestId('pricing-visual-save').click();
    await expectToast(page, 'success', '保存成功');
    page.off('request', onRequest);
    expect(puts).toEqual(['ModelRatio']);
    const after = await apiFromPage<{ key: string; value: string }[]>(page, 'GET', '/api/option/');
    expect(after.data.find((option) => option.key === 'CacheRatio')!.value).toBe(storedValue('CacheRatio'));
    expect(JSON.parse(after.data.find((option) => option.key === 'ModelRatio')!.value)).not.toHaveProperty('e2e-page-10');
    // The unsaved edit is still there to finish or discard.
    await page.getByTestId('pricing-tab-json').click();
    expect(await page.locator('textarea[name="CacheRatio"]').inputValue()).toBe('{"e2e-unsent": ');
  });

  test('unsaved table edits survive a look at another pricing sub-tab', async () => {
    const { page } = watched;
    await openPricing(watched, 'visual');
    await page.getByTestId('pricing-visual-add').click();
    await page.getByTestId('pricing-row-name').fill('e2e-kept-row');
    await page.getByTestId('pricing-row-ratio').fill('1');
    await page.getByTestId('pricing-row-submit').click();
    await page.getByTestId('pricing-visual-row-e2e-kept-row').waitFor();

    await page.getByTestId('pricing-tab-unpriced').click();
    await page.getByTestId('pricing-unpriced-table').waitFor();
    await page.getByTestId('pricing-tab-json').click();
    // The JSON editors, kept while hidden, are sized again when shown.
    expect((await page.locator('textarea[name="ModelRatio"]').boundingBox())!.height).toBeGreaterThan(100);
    await page.getByTestId('pricing-tab-visual').click();
    await page.getByTestId('pricing-visual-row-e2e-kept-row').waitFor();
    await page.getByTestId('pricing-visual-unsaved').waitFor();
  });

  test('payment waits for the server address; a system change saves and survives a reload', async () => {
    const { page } = watched;
    await watched.goto('/setting?tab=system');
    await page.locator('input[name="PayAddress"]').fill('https://pay.example.com');
    await saveButton(page, 'system-payment').click();
    await expectToast(page, 'error', '请先填写并保存服务器地址');

    await page.locator('input[name="ServerAddress"]').fill('https://gateway.example.com/');
    await saveButton(page, 'system-server').click();
    await expectToast(page, 'success', '保存成功');
    await saveButton(page, 'system-payment').click();
    await expectToast(page, 'success', '保存成功');

    await page.reload();
    await page.waitForLoadState('networkidle');
    // The server keeps the address without its trailing slash.
    expect(await page.locator('input[name="ServerAddress"]').inputValue()).toBe('https://gateway.example.com');
    expect(await page.locator('input[name="PayAddress"]').inputValue()).toBe('https://pay.example.com');
    const status = (await (await fetch(`${server.baseUrl}/api/status`)).json()) as { data: { server_address: string } };
    expect(status.data.server_address).toBe('https://gateway.example.com');
  });

  test('a secret saved through the page is never shown again, yet the server uses it', async () => {
    const { page } = watched;
    await watched.goto('/setting?tab=system');
    const telegram = page.getByTestId('system-telegram');
    await telegram.locator('input[name="TelegramOAuthEnabled"]').check();
    await telegram.locator('input[name="TelegramBotName"]').fill('e2e_bot');
    await telegram.locator('input[name="TelegramBotToken"]').fill(TELEGRAM_TOKEN);
    await saveButton(page, 'system-telegram').click();
    await expectToast(page, 'success', '保存成功');
    expect(await telegram.locator('input[name="TelegramBotToken"]').inputValue()).toBe('');

    await page.reload();
    await page.waitForLoadState('networkidle');
    const token = page.getByTestId('system-telegram').locator('input[name="TelegramBotToken"]');
    expect(await token.inputValue()).toBe('');
    expect(await token.getAttribute('placeholder')).toBe('已设置（不回显），留空则保持不变');
    // That it is set shows without focusing the field (MUI hides a placeholder under an unraised label).
    expect(await token.evaluate((input) => getComputedStyle(input, '::placeholder').opacity)).not.toBe('0');
    expect(await page.content()).not.toContain(TELEGRAM_TOKEN);

    // Saving the card again with the field left empty keeps the stored token.
    await page.getByTestId('system-telegram').locator('input[name="TelegramBotName"]').fill('e2e_bot_2');
    await saveButton(page, 'system-telegram').click();
    await expectToast(page, 'success', '保存成功');

    // The server holds the token: a login signed with it verifies, one signed with another does not.
    const signedIn = (await (await fetch(`${server.baseUrl}/api/oauth/telegram/login?${telegramLogin(TELEGRAM_TOKEN, '7001')}`)).json()) as { success: boolean };
    expect(signedIn.success).toBe(true);
    const forged = (await (await fetch(`${server.baseUrl}/api/oauth/telegram/login?${telegramLogin('1:other-token', '7002')}`)).json()) as { success: boolean };
    expect(forged.success).toBe(false);
  });

  test('disabling password login asks for confirmation', async () => {
    const { page } = watched;
    await watched.goto('/setting?tab=system');
    const passwordLogin = page.locator('input[name="PasswordLoginEnabled"]');
    expect(await passwordLogin.isChecked()).toBe(true);
    await passwordLogin.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('确定关闭密码登录？').waitFor();
    await watched.screenshot('settings-system-password-confirm');
    await dialog.getByRole('button', { name: '取消' }).click();
    expect(await passwordLogin.isChecked()).toBe(true);

    await passwordLogin.click();
    await page.getByRole('dialog').getByRole('button', { name: '关闭' }).click();
    expect(await passwordLogin.isChecked()).toBe(false);
    await saveButton(page, 'system-login').click();
    await expectToast(page, 'success', '保存成功');
    const status = (await (await fetch(`${server.baseUrl}/api/status`)).json()) as { data: { password_login_enabled: boolean } };
    expect(status.data.password_login_enabled).toBe(false);

    // Turning it back on needs no confirmation.
    await passwordLogin.click();
    expect(await passwordLogin.isChecked()).toBe(true);
    await saveButton(page, 'system-login').click();
    await expectToast(page, 'success', '保存成功');
  });

  test('SMTP port 465 forces SSL; the whitelist adds only new domains; OIDC endpoints come from discovery', async () => {
    const { page } = watched;
    await watched.goto('/setting?tab=system');
    const ssl = page.locator('input[name="SMTPSSLEnabled"]');
    expect(await ssl.isChecked()).toBe(false);
    await page.locator('input[name="SMTPPort"]').fill('465');
    await page.getByText('465 端口总是使用 SSL').first().waitFor();
    expect(await ssl.isChecked()).toBe(true);
    expect(await ssl.isDisabled()).toBe(true);

    const whitelist = page.getByTestId('email-whitelist');
    const before = await whitelist.locator('.MuiChip-root').count();
    await page.getByTestId('email-whitelist-input').fill('gmail.com');
    await page.getByTestId('email-whitelist-add').click();
    await page.getByTestId('email-whitelist-input').fill('  ');
    await page.getByTestId('email-whitelist-add').click();
    expect(await whitelist.locator('.MuiChip-root').count()).toBe(before);
    await page.getByTestId('email-whitelist-input').fill('example.org');
    await page.getByTestId('email-whitelist-add').click();
    await whitelist.getByText('example.org').waitFor();
    await saveButton(page, 'system-email').click();
    await expectToast(page, 'success', '保存成功');

    const oidc = page.getByTestId('system-oidc');
    await oidc.locator('input[name="oidc.well_known"]').fill('ftp://idp.example.com/.well-known/openid-configuration');
    await page.getByTestId('oidc-discover').click();
    await oidc.getByText('Well-Known URL 必须以 http:// 或 https:// 开头').waitFor();
    await oidc.locator('input[name="oidc.well_known"]').fill(`${discovery.url}/.well-known/openid-configuration`);
    await page.getByTestId('oidc-discover').click();
    await expectToast(page, 'success', '已从发现文档填入端点');
    expect(await oidc.locator('input[name="oidc.authorization_endpoint"]').inputValue()).toBe(`${discovery.url}/authorize`);
    expect(await oidc.locator('input[name="oidc.token_endpoint"]').inputValue()).toBe(`${discovery.url}/token`);
    expect(await oidc.locator('input[name="oidc.user_info_endpoint"]').inputValue()).toBe(`${discovery.url}/userinfo`);
    await saveButton(page, 'system-oidc').click();
    await expectToast(page, 'success', '保存成功');
    await watched.screenshot('settings-system');
  });

  test('English, and a phone-width screen without sideways scrolling', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await watched.goto('/setting?tab=system');
    await page.getByTestId('system-server').getByText('Server address').first().waitFor();
    await page.getByTestId('system-smtp').getByRole('heading', { name: 'SMTP mail' }).waitFor();
    await openPricing(watched, 'visual');
    await page.getByRole('columnheader', { name: 'Completion ratio' }).waitFor();
    await page.getByTestId('pricing-tab-unpriced').filter({ hasText: 'Models without a price' }).waitFor();

    const phone = await WatchedPage.open(browser, server.baseUrl, 390);
    try {
      await phone.page.context().addCookies(await watched.context.cookies());
      await phone.page.goto('/');
      await phone.page.evaluate((user) => localStorage.setItem('user', user), await page.evaluate(() => localStorage.getItem('user') ?? ''));
      for (const path of ['/setting?tab=system', '/setting?tab=operation']) {
        await phone.goto(path);
        await phone.page.getByTestId(path.endsWith('system') ? 'settings-system' : 'settings-pricing').waitFor();
        const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      await phone.page.getByTestId('pricing-tab-visual').click();
      // The table's page arrows stay on screen (they wrap under the page-size choice) and work.
      const next = phone.page.getByTestId('table-pagination').getByRole('button', { name: '下一页' });
      const box = await next.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
      await next.click();
      await phone.page.getByTestId('table-pagination').getByText(/^第 11–20 条/).waitFor();
      await phone.page.getByTestId('pricing-visual-add').click();
      await phone.page.getByTestId('pricing-row-dialog').getByText('添加模型价格').waitFor();
      phone.expectNoConsoleErrors();
    } finally {
      await phone.close();
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
    }
  });
});
