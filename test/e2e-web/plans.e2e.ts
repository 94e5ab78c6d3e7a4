import type { Browser } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage, expectToast, rowId } from './operations-helpers';

interface PlanJson {
  id: number;
  name: string;
  price: number;
  total_quota: number;
  budget_windows: Array<{ period: string; quota: number }>;
  models: string[] | null;
  allow_wallet_fallback: boolean;
}

/** The admin Plans page, the wallet's plans and subscriptions, and a user's subscriptions in the user editor, in zh and en, desktop and phone. */
describe('subscription plans in the console (/plan, /topup, /user/edit)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let planId = 0;

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole());
  });
  afterAll(() => closeSession({ watched, browser, server }));

  async function noHorizontalOverflow(): Promise<void> {
    const overflow = await watched.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }

  test('an administrator creates a plan with a total and a window; a bad price is refused in the form (zh, desktop)', async () => {
    const { page } = watched;
    await watched.goto('/plan');
    await page.getByRole('heading', { name: '订阅套餐' }).waitFor();
    await page.getByTestId('add-plan').click();
    const drawer = page.getByTestId('plan-drawer');
    await drawer.getByTestId('plan-name').fill('Pro');
    await drawer.getByTestId('plan-price').fill('1.234');
    await drawer.getByTestId('plan-total-quota').fill('1000000');
    await drawer.getByTestId('plan-models').fill('gpt-4o, gpt-4o-mini');
    await drawer.getByTestId('plan-windows-add').click();
    await drawer.getByTestId('plan-windows-quota-0').fill('500000');
    await drawer.getByLabel('用完后使用余额').check();
    await drawer.getByTestId('plan-submit').click();
    await drawer.getByText('价格必须是最多两位小数的数').waitFor();
    await drawer.getByTestId('plan-price').fill('2');
    await watched.screenshot('plan-drawer');
    await drawer.getByTestId('plan-submit').click();
    await expectToast(page, 'success', '套餐已创建');
    await drawer.waitFor({ state: 'hidden' });

    planId = await rowId(page, 'plan-row-', 'Pro');
    await page.getByTestId(`plan-status-${planId}`).filter({ hasText: '在售' }).waitFor();
    const saved = await apiFromPage<PlanJson>(page, 'GET', `/api/plan/${planId}`);
    expect(saved.data).toMatchObject({ name: 'Pro', price: 2, total_quota: 1_000_000, budget_windows: [{ period: '5h', quota: 500_000 }], models: ['gpt-4o', 'gpt-4o-mini'], allow_wallet_fallback: true });
    await watched.screenshot('plans');

    // The editor loads what was saved.
    await page.getByTestId(`plan-edit-${planId}`).click();
    expect(await drawer.getByTestId('plan-windows-quota-0').inputValue()).toBe('500000');
    expect(await drawer.getByTestId('plan-price').inputValue()).toBe('2');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  test('the wallet offers the plan, buys it from the balance and shows each window’s use with its reset (zh, desktop)', async () => {
    const { page } = watched;
    await watched.goto('/topup');
    const offer = page.getByTestId(`plan-offer-${planId}`);
    await offer.getByText('Pro').waitFor();
    await offer.getByText('总额度').waitFor();
    await page.getByTestId(`plan-buy-balance-${planId}`).click();
    await expectToast(page, 'success', '已订阅 Pro');
    const subscriptions = page.getByTestId('subscriptions');
    await subscriptions.getByText('生效中', { exact: true }).waitFor();
    expect(await subscriptions.getByRole('progressbar').count()).toBe(2);
    await subscriptions.getByText('下次调用时开始').waitFor();
    await subscriptions.getByText('不会重置').waitFor();
    await watched.screenshot('wallet-plans');
    // Bought from the balance: $4 of quota (price 2 × 500000) left it.
    const self = await apiFromPage<{ quota: number }>(page, 'GET', '/api/user/self');
    expect(self.data.quota).toBe(100_000_000 - 1_000_000);
  });

  test('a redemption code can carry the plan; redeeming it renews the subscription (zh)', async () => {
    const { page } = watched;
    await watched.goto('/redemption');
    await page.getByTestId('add-redemption').click();
    const drawer = page.getByTestId('redemption-drawer');
    await drawer.getByLabel('套餐').click();
    await page.getByRole('option', { name: 'Pro' }).click();
    // A plan code has no quota of its own.
    expect(await drawer.getByTestId('redemption-quota').count()).toBe(0);
    await page.getByTestId('redemption-submit').click();
    const dialog = page.getByTestId('created-keys-dialog');
    const [key] = (await page.getByTestId('created-keys').inputValue()).split('\n');
    await dialog.getByRole('button', { name: '关闭' }).click();
    await page.getByText(`套餐 #${planId}`).waitFor();

    await watched.goto('/topup');
    const before = await apiFromPage<Array<{ expires_at: number }>>(page, 'GET', '/api/subscription/self');
    await page.getByTestId('redeem-code').fill(key);
    await page.getByTestId('redeem-submit').click();
    await expectToast(page, 'success', '兑换成功，套餐已开通或续期');
    const after = await apiFromPage<Array<{ expires_at: number }>>(page, 'GET', '/api/subscription/self');
    expect(after.data).toHaveLength(1);
    expect(after.data[0].expires_at).toBe(before.data[0].expires_at + 30 * 86_400);
  });

  test('the user editor shows an administrator the user’s subscriptions, read-only, with each window’s use (zh)', async () => {
    const { page } = watched;
    const self = await apiFromPage<{ id: number }>(page, 'GET', '/api/user/self');
    const [subscription] = (await apiFromPage<Array<{ id: number }>>(page, 'GET', `/api/user/${self.data.id}/subscriptions`)).data;
    await watched.goto(`/user/edit/${self.data.id}`);
    const section = page.getByTestId('edit-user-drawer').getByTestId('user-subscriptions');
    await section.getByText('订阅（只读）').waitFor();
    const summary = section.getByTestId(`subscription-${subscription.id}`);
    await summary.getByText('Pro').waitFor();
    await summary.getByText('生效中', { exact: true }).waitFor();
    await summary.getByText(/ – /).waitFor();
    expect(await summary.getByRole('progressbar').count()).toBe(2);
    await summary.getByText('不会重置').waitFor();
    // Read-only: nothing in the section to type into or press.
    expect(await section.locator('input, textarea, button').count()).toBe(0);
    await summary.scrollIntoViewIfNeeded();
    await watched.screenshot('user-subscriptions');
    await page.keyboard.press('Escape');
    await page.getByTestId('edit-user-drawer').waitFor({ state: 'hidden' });
  });

  test('in English on a phone both pages fit the screen', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await watched.goto('/topup');
      await page.getByTestId('subscriptions').getByText('My subscriptions').waitFor();
      await page.getByTestId(`plan-offer-${planId}`).getByText('Buy with balance', { exact: false }).waitFor();
      await noHorizontalOverflow();
      await watched.goto('/plan');
      await page.getByRole('heading', { name: 'Subscription plans' }).waitFor();
      await page.getByTestId(`plan-row-${planId}`).waitFor();
      await noHorizontalOverflow();
      await page.getByTestId(`plan-edit-${planId}`).click();
      await page.getByTestId('plan-drawer').getByText('Fall back to the wallet').waitFor();
      await noHorizontalOverflow();
      await watched.screenshot('plan-drawer-en');
      await page.keyboard.press('Escape');
      const self = await apiFromPage<{ id: number }>(page, 'GET', '/api/user/self');
      await watched.goto(`/user/edit/${self.data.id}`);
      const section = page.getByTestId('edit-user-drawer').getByTestId('user-subscriptions');
      await section.getByText('Subscriptions (read-only)').waitFor();
      await section.getByText('Active', { exact: true }).waitFor();
      await section.getByText('Does not reset').waitFor();
      await noHorizontalOverflow();
      await section.scrollIntoViewIfNeeded();
      await watched.screenshot('user-subscriptions-en');
      await page.keyboard.press('Escape');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
    }
  });
});
