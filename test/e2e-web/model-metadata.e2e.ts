import type { Browser } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage, expectToast } from './operations-helpers';

/** Served by the test channel: three with shipped metadata (OpenAI, DeepSeek) and one the administrator describes here. */
const SERVED = ['gpt-4o', 'gpt-4o-mini', 'deepseek-reasoner', 'e2e-plain-model'];

describe('model metadata: the admin editor, the pricing page and the playground picker', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;

  async function noHorizontalOverflow(): Promise<void> {
    const overflow = await watched.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }

  /** The model names of the pricing table's rows, top to bottom. */
  async function pricingRows(): Promise<string[]> {
    const ids = await watched.page.locator('[data-testid^="pricing-row-"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid') ?? ''));
    return ids.map((id) => id.replace('pricing-row-', ''));
  }

  async function expectRows(expected: string[]): Promise<void> {
    await watched.page.waitForFunction((count) => document.querySelectorAll('[data-testid^="pricing-row-"]').length === count, expected.length);
    expect(await pricingRows()).toEqual(expected);
  }

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole());
    const created = await apiFromPage(watched.page, 'POST', '/api/channel/', { name: 'e2e-meta', type: 1, key: 'sk-e2e', models: SERVED.join(','), group: 'default' });
    expect(created.success).toBe(true);
  });
  afterAll(() => closeSession({ watched, browser, server }));

  test('an administrator adds a vendor and describes a model; a bad context length is refused in the form (zh, desktop)', async () => {
    const { page } = watched;
    await watched.goto('/models');
    await page.getByRole('heading', { name: '模型元数据' }).waitFor();
    await page.getByTestId('vendor-chip-OpenAI').waitFor();
    await page.getByTestId('model-meta-context-gpt-4o').filter({ hasText: '128K' }).waitFor();

    await page.getByTestId('add-vendor').click();
    const vendorDrawer = page.getByTestId('vendor-drawer');
    await vendorDrawer.getByTestId('vendor-name').fill('E2E Labs');
    await vendorDrawer.getByTestId('vendor-icon').fill('http://not-https.example/icon.png');
    await vendorDrawer.getByTestId('vendor-submit').click();
    await vendorDrawer.getByText('留空、内置图标名或 https 地址').waitFor();
    await vendorDrawer.getByTestId('vendor-icon').fill('deepseek');
    await vendorDrawer.getByTestId('vendor-submit').click();
    await expectToast(page, 'success', '操作成功');
    await vendorDrawer.waitFor({ state: 'hidden' });
    await page.getByTestId('vendor-chip-E2E Labs').waitFor();

    await page.getByTestId('add-model-meta').click();
    const drawer = page.getByTestId('model-meta-drawer');
    await drawer.getByTestId('model-meta-name').fill('e2e-plain-model');
    await drawer.getByTestId('model-meta-description').fill('一个端到端测试模型');
    await drawer.getByLabel('供应商', { exact: true }).click();
    await page.getByRole('option', { name: 'E2E Labs' }).click();
    await drawer.getByLabel('标签', { exact: true }).click();
    await page.getByRole('option', { name: '对话' }).click();
    await page.getByRole('option', { name: '音频' }).click();
    await page.keyboard.press('Escape');
    await drawer.getByTestId('model-meta-context').fill('lots');
    await drawer.getByTestId('model-meta-submit').click();
    await drawer.getByText('请输入 0 到 10000000 之间的整数').waitFor();
    await drawer.getByTestId('model-meta-context').fill('32768');
    await drawer.getByTestId('model-meta-max-output').fill('4096');
    await watched.screenshot('model-meta-drawer');
    await drawer.getByTestId('model-meta-submit').click();
    await expectToast(page, 'success', '模型元数据已添加');
    await drawer.waitFor({ state: 'hidden' });
    await page.getByTestId('model-meta-context-e2e-plain-model').filter({ hasText: '32K' }).waitFor();

    const saved = await apiFromPage<{ items: { model_name: string; tags: string[]; context_length: number; max_output: number; description: string }[] }>(page, 'GET', '/api/models/search?keyword=e2e-plain-model');
    expect(saved.data.items).toEqual([expect.objectContaining({ model_name: 'e2e-plain-model', tags: ['chat', 'audio'], context_length: 32768, max_output: 4096, description: '一个端到端测试模型' })]);
    await watched.screenshot('model-meta-admin');
  });

  test('the pricing page groups by vendor, filters by tag and shows the context length (zh, desktop)', async () => {
    const { page } = watched;
    await watched.goto('/pricing');
    // Grouped by vendor, the vendors in name order: DeepSeek, E2E Labs, OpenAI.
    await expectRows(['deepseek-reasoner', 'e2e-plain-model', 'gpt-4o', 'gpt-4o-mini']);
    await page.getByTestId('pricing-vendor-OpenAI').filter({ hasText: 'OpenAI (2)' }).waitFor();
    await page.getByTestId('pricing-vendor-all').filter({ hasText: '全部供应商（4）' }).waitFor();
    await page.getByTestId('pricing-context-gpt-4o').filter({ hasText: '128K' }).waitFor();
    await page.getByTestId('pricing-context-e2e-plain-model').filter({ hasText: '32K' }).waitFor();
    await page.getByTestId('pricing-vendor-e2e-plain-model').filter({ hasText: 'E2E Labs' }).waitFor();
    await page.getByTestId('pricing-tags-deepseek-reasoner').getByText('推理').waitFor();

    await page.getByTestId('pricing-tag-reasoning').click();
    await expectRows(['deepseek-reasoner']);
    await page.getByTestId('pricing-tag-all').click();
    await page.getByTestId('pricing-vendor-OpenAI').click();
    await expectRows(['gpt-4o', 'gpt-4o-mini']);
    await page.getByTestId('pricing-tag-audio').click();
    await expectRows([]);
    await page.getByTestId('pricing-vendor-all').click();
    await expectRows(['e2e-plain-model']);
    await watched.screenshot('pricing-metadata-zh');
    await page.getByTestId('pricing-tag-all').click();
  });

  test('the playground picker groups models by vendor and shows their context (zh)', async () => {
    const { page } = watched;
    await watched.goto('/playground');
    await page.getByTestId('pg-model').getByRole('combobox').click();
    const listbox = page.getByRole('listbox');
    await listbox.getByText('OpenAI', { exact: true }).waitFor();
    await listbox.getByText('E2E Labs', { exact: true }).waitFor();
    await page.getByTestId('pg-model-option-gpt-4o').filter({ hasText: '128K' }).waitFor();
    await page.getByTestId('pg-model-option-e2e-plain-model').filter({ hasText: '32K' }).waitFor();
    await page.getByTestId('pg-model-option-deepseek-reasoner').click();
    await page.getByTestId('pg-model').filter({ hasText: 'deepseek-reasoner' }).waitFor();
  });

  test('in English on a phone the pricing page filters and the editor fit the screen', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await watched.goto('/pricing');
      await page.getByTestId('pricing-vendor-all').filter({ hasText: 'All vendors (4)' }).waitFor();
      await page.getByTestId('pricing-tag-vision').filter({ hasText: 'Vision' }).click();
      await expectRows(['gpt-4o', 'gpt-4o-mini']);
      await page.getByTestId('pricing-context-gpt-4o-mini').filter({ hasText: '128K' }).waitFor();
      await page.getByRole('columnheader', { name: 'Context' }).waitFor();
      await noHorizontalOverflow();
      await watched.screenshot('pricing-metadata-en');

      await watched.goto('/models');
      await page.getByRole('heading', { name: 'Model metadata' }).waitFor();
      await page.getByTestId('vendor-chip-E2E Labs').filter({ hasText: 'E2E Labs (1)' }).waitFor();
      await noHorizontalOverflow();
      await page.getByTestId('model-meta-edit-e2e-plain-model').click();
      const drawer = page.getByTestId('model-meta-drawer');
      expect(await drawer.getByTestId('model-meta-context').inputValue()).toBe('32768');
      await drawer.getByLabel('Context length (tokens)').waitFor();
      await drawer.getByTestId('model-meta-context').fill('65536');
      await drawer.getByTestId('model-meta-submit').click();
      await expectToast(page, 'success', 'Model metadata saved');
      await page.getByTestId('model-meta-context-e2e-plain-model').filter({ hasText: '64K' }).waitFor();
      await noHorizontalOverflow();
      await watched.screenshot('model-meta-admin-en');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
    }
    watched.expectNoConsoleErrors();
  });
});
