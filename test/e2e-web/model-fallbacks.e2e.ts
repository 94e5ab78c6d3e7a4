import type { Browser } from 'playwright-core';
import { closeSession, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage } from './operations-helpers';

interface TokenJson {
  id: number;
  model_fallbacks: string[];
}

/** The token editor's fallback list and the ModelFallbacks setting, in zh and en, desktop and phone. */
describe('model fallbacks in the console', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    ({ server, browser, watched } = await startConsole());
  });
  afterAll(() => closeSession({ watched, browser, server }));

  async function tokens(): Promise<TokenJson[]> {
    return (await apiFromPage<{ items: TokenJson[] }>(watched.page, 'GET', '/api/token/?p=1&size=10')).data.items;
  }

  test('a token gets its own fallback list in order, and the editor loads it back (zh, desktop)', async () => {
    const { page } = watched;
    await watched.goto('/token');
    await page.getByTestId('add-token').click();
    const drawer = page.getByTestId('token-drawer');
    await drawer.getByTestId('token-name').fill('with-fallbacks');
    const fallbacks = drawer.getByTestId('token-model-fallbacks');
    for (const model of ['gpt-4o-mini', 'claude-sonnet-4-5']) {
      await fallbacks.fill(model);
      await fallbacks.press('Enter');
    }
    await drawer.getByText('备用模型').first().waitFor();
    await watched.screenshot('token-fallbacks-drawer');
    await drawer.getByTestId('token-submit').click();
    await drawer.waitFor({ state: 'hidden' });
    const [token] = await tokens();
    expect(token.model_fallbacks).toEqual(['gpt-4o-mini', 'claude-sonnet-4-5']);

    await page.getByTestId(`token-edit-${token.id}`).click();
    await drawer.getByRole('button', { name: 'claude-sonnet-4-5' }).waitFor();
    // Removing the first keeps the rest in order.
    await drawer.getByRole('button', { name: 'gpt-4o-mini' }).locator('svg').click();
    await drawer.getByTestId('token-submit').click();
    await drawer.waitFor({ state: 'hidden' });
    expect((await tokens())[0].model_fallbacks).toEqual(['claude-sonnet-4-5']);
  });

  test('the setting saves from the models tab and a bad value is refused (en, phone)', async () => {
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.setViewportSize({ width: 390, height: 844 });
    await watched.goto('/setting?tab=models');
    const section = page.getByTestId('settings-models-fallbacks');
    await section.getByText('Model fallbacks').first().waitFor();
    const input = page.locator('[name="ModelFallbacks"]');
    await input.fill('{"gpt-4o": "gpt-4o-mini"}');
    watched.allow.push(/HTTP 400 PUT .*\/api\/option/);
    await section.getByRole('button', { name: /Save/ }).click();
    await page.getByText('ModelFallbacks must be a JSON object: model → [fallback model, …], at most 10 fallback models each').first().waitFor();
    await input.fill('{"gpt-4o": ["gpt-4o-mini", "claude-sonnet-4-5"]}');
    await section.getByRole('button', { name: /Save/ }).click();
    await page.getByText('Saved').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await watched.screenshot('settings-model-fallbacks-en');
    const stored = await page.evaluate(async () => {
      const user = JSON.parse(localStorage.getItem('user') ?? '{}') as { id?: number };
      const response = await fetch('/api/option/', { headers: { 'New-Api-User': String(user.id ?? '') } });
      return ((await response.json()) as { data: { key: string; value: string }[] }).data.find((option) => option.key === 'ModelFallbacks')?.value;
    });
    expect(JSON.parse(stored ?? '{}')).toEqual({ 'gpt-4o': ['gpt-4o-mini', 'claude-sonnet-4-5'] });
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });
});
