import type { Browser } from 'playwright-core';
import { MockEpay } from '../support/mock-epay';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage, expectToast, readClipboard, rowId } from './operations-helpers';

describe('money pages (/redemption, /topup)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let epay: MockEpay;
  let keys: string[] = [];

  beforeAll(async () => {
    epay = await new MockEpay('2002', 'e2e-merchant-key').start();
    ({ server, browser, watched } = await startConsole());
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
    await epay.stop();
  });

  test('an admin creates a batch of codes, copies the keys, edits and disables one (zh)', async () => {
    const { page } = watched;
    await watched.goto('/redemption');
    await page.getByRole('heading', { name: '兑换码' }).waitFor();
    await page.getByTestId('add-redemption').click();
    await page.getByTestId('redemption-name').fill('n'.repeat(21));
    await page.getByTestId('redemption-submit').click();
    await page.getByText('名称最多 20 个字符').waitFor();
    await page.getByTestId('redemption-name').fill('promo');
    await page.getByTestId('redemption-quota').fill('500000');
    // The amount under the field follows the quota typed, and a quick pick.
    await page.getByTestId('redemption-quota-amount').filter({ hasText: /^\$1\.00$/ }).waitFor();
    await page.getByTestId('redemption-drawer').getByText('$50.00', { exact: true }).click();
    await page.getByTestId('redemption-quota-amount').filter({ hasText: /^\$50\.00$/ }).waitFor();
    await page.getByTestId('redemption-quota').fill('500000');
    await page.getByTestId('redemption-quota-amount').filter({ hasText: /^\$1\.00$/ }).waitFor();
    await page.getByTestId('redemption-count').fill('3');
    await page.getByTestId('redemption-submit').click();
    const dialog = page.getByTestId('created-keys-dialog');
    await dialog.getByText('已创建 3 个兑换码').waitFor();
    keys = (await page.getByTestId('created-keys').inputValue()).split('\n');
    expect(keys).toHaveLength(3);
    expect(keys.every((key) => /^[A-Za-z0-9]{32}$/.test(key))).toBe(true);
    await page.getByTestId('copy-created-keys').click();
    expect((await readClipboard(page)).split('\n')).toEqual(keys);
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByTestId('redemption-search').fill(keys[2]);
    await page.getByTestId('redemption-search-submit').click();
    // The search answers after the click; a loaded machine may still show the unfiltered rows for a moment.
    await page.waitForFunction(() => document.querySelectorAll('tr[data-testid^="redemption-row-"]').length === 1, undefined, { timeout: 20_000 });
    const id = await rowId(page, 'redemption-row-', 'promo');
    await page.getByTestId(`redemption-edit-${id}`).click();
    await page.getByTestId('redemption-name').fill('promo-x');
    await page.getByTestId('redemption-submit').click();
    await expectToast(page, 'success', '兑换码已更新');
    await page.getByTestId(`redemption-row-${id}`).filter({ hasText: 'promo-x' }).waitFor();
    await page.getByTestId(`redemption-disable-${id}`).click();
    await page.getByTestId(`redemption-status-${id}`).filter({ hasText: '已禁用' }).waitFor();
    // Only an unused code is edited (spec): a disabled one offers enable, not edit.
    await page.getByTestId(`redemption-enable-${id}`).waitFor();
    expect(await page.getByTestId(`redemption-edit-${id}`).count()).toBe(0);
    await watched.screenshot('redemptions');
  });

  test('the wallet redeems a code once and explains a used or disabled one (zh)', async () => {
    const { page } = watched;
    await watched.goto('/topup');
    await page.getByTestId('online-disabled').filter({ hasText: '管理员未开启在线充值' }).waitFor();
    const before = await page.getByTestId('wallet-balance').textContent();
    await page.getByTestId('redeem-submit').click();
    await expectToast(page, 'error', '请输入兑换码');
    await page.getByTestId('redeem-code').fill(keys[0]);
    await page.getByTestId('redeem-submit').click();
    await expectToast(page, 'success', '兑换成功，已增加额度 $1.00');
    await page.waitForFunction((previous) => document.querySelector('[data-testid="wallet-balance"]')?.textContent !== previous, before);
    expect(await page.getByTestId('wallet-balance').textContent()).toBe('$201.00');
    await page.getByTestId('redeem-code').fill(keys[0]);
    await page.getByTestId('redeem-submit').click();
    await expectToast(page, 'error', '该兑换码已被使用');
    await page.getByTestId('redeem-code').fill(keys[2]);
    await page.getByTestId('redeem-submit').click();
    await expectToast(page, 'error', '该兑换码已被禁用');
    await page.getByTestId('buy-code').click();
    await expectToast(page, 'error', '超级管理员未设置充值链接');
    await watched.screenshot('wallet');
  });

  test('a visitor who registers through the invitation link (/register?aff=) earns the inviter the reward', async () => {
    const { page } = watched;
    expect((await apiFromPage(page, 'PUT', '/api/option/', { key: 'QuotaForInviter', value: '1000' })).success).toBe(true);
    const code = (await apiFromPage<string>(page, 'GET', '/api/user/aff')).data;
    const inviter = async () => (await apiFromPage<{ aff_count: number; aff_quota: number }>(page, 'GET', '/api/user/self')).data;
    const before = await inviter();
    const visitor = await browser.newContext({ baseURL: server.baseUrl });
    try {
      const guest = await visitor.newPage();
      await guest.goto(`/register?aff=${code}`);
      await guest.locator('input[name="username"]').fill('invitee');
      await guest.locator('input[name="password"]').fill('invitee-pass-1');
      await guest.locator('input[name="password2"]').fill('invitee-pass-1');
      await guest.getByTestId('register-submit').click();
      await guest.waitForURL('**/login');
    } finally {
      await visitor.close();
    }
    const after = await inviter();
    expect([after.aff_count, after.aff_quota]).toEqual([before.aff_count + 1, before.aff_quota + 1000]);
  });

  test('online top-up through the Epay gateway, on a phone, in English', async () => {
    const { page } = watched;
    const payMethods = JSON.stringify([
      { name: '支付宝', type: 'alipay' },
      { name: 'Stripe', type: 'stripe' },
    ]);
    for (const [key, value] of Object.entries({ ServerAddress: server.baseUrl, PayAddress: epay.url, EpayId: epay.merchantId, EpayKey: epay.key, MinTopUp: '2', PayMethods: payMethods })) {
      expect((await apiFromPage(page, 'PUT', '/api/option/', { key, value })).success).toBe(true);
    }
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.setViewportSize({ width: 390, height: 844 });
    await watched.goto('/topup');
    await page.getByRole('heading', { name: 'Wallet' }).waitFor();
    // The amount starts at MinTopUp, though the cached status the page opened with still said 1.
    await page.getByTestId('topup-payable').filter({ hasText: 'Payable: 14.60 · Stripe: US$16.00' }).waitFor();
    expect(await page.getByTestId('topup-amount').inputValue()).toBe('2');
    await page.getByTestId('topup-amount').fill('1');
    await page.getByTestId('topup-payable').filter({ hasText: 'The top-up amount cannot be less than 2' }).waitFor();
    await page.getByTestId('topup-amount').fill('5.5');
    await page.getByTestId('topup-payable').filter({ hasText: 'The amount must be a positive whole number' }).waitFor();
    await page.getByTestId('topup-amount').fill('5');
    // Each provider's own price: Epay's Price in its currency, Stripe's unit price in US dollars.
    await page.getByTestId('topup-payable').filter({ hasText: 'Payable: 36.50 · Stripe: US$40.00' }).waitFor();
    await watched.screenshot('wallet-en');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('pay-alipay').click();
    // The gateway takes the signed form, notifies the server and sends the browser back.
    await page.getByTestId('topup-return').waitFor();
    expect(epay.replies).toEqual(['success']);
    await page.getByRole('link', { name: 'Back to the wallet' }).click();
    await page.getByTestId('wallet-balance').filter({ hasText: '$206.00' }).waitFor();
    await page.getByTestId('topup-history').locator('tbody').getByText('Paid', { exact: true }).waitFor();
    // The method as PayMethods names it, not its Epay type.
    await page.getByTestId('topup-history').locator('tbody').getByText('支付宝', { exact: true }).waitFor();
    // With Stripe alone, neither Epay's price nor its payable amount shows.
    expect((await apiFromPage(page, 'PUT', '/api/option/', { key: 'PayMethods', value: JSON.stringify([{ name: 'Stripe', type: 'stripe' }]) })).success).toBe(true);
    await watched.goto('/topup');
    await page.getByTestId('topup-payable').filter({ hasText: /^Stripe: US\$16\.00$/ }).waitFor();
    expect(await page.getByText('Price: 7.3 per unit').count()).toBe(0);

    await watched.goto('/redemption');
    await page.getByRole('heading', { name: 'Redemption codes' }).waitFor();
    await page.getByTestId(`redemption-status-${await rowId(page, 'redemption-row-', 'promo')}`).waitFor();
    await watched.screenshot('redemptions-en');
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });
});
