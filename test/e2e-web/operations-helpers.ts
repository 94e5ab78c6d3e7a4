import type { Page } from 'playwright-core';

/** Waits for a toast of this severity containing `text`, then closes it so the next one can show. */
export async function expectToast(page: Page, severity: 'success' | 'error' | 'info' | 'warning', text: string | RegExp) {
  const toast = page.getByTestId(`toast-${severity}`).filter({ hasText: text });
  await toast.waitFor({ timeout: 20000 });
  await toast.locator('button').click();
  await toast.waitFor({ state: 'detached' });
}

/** Calls the console API from inside the page, with the session cookie and New-Api-User header. */
export async function apiFromPage<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ success: boolean; message: string; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const user = JSON.parse(localStorage.getItem('user') ?? 'null') as { id: number } | null;
      const response = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', ...(user ? { 'New-Api-User': String(user.id) } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return response.json();
    },
    { method, path, body },
  );
}

/** The numeric id at the end of a row's data-testid (e.g. channel-row-12 → 12). */
export async function rowId(page: Page, prefix: string, hasText: string): Promise<number> {
  const row = page.locator(`tr[data-testid^="${prefix}"]`, { hasText }).first();
  await row.waitFor();
  return Number((await row.getAttribute('data-testid'))!.slice(prefix.length));
}

export async function readClipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/** One chat completion through the gateway with an API key, as a client would make it; answers the HTTP status. */
export async function chatThroughGateway(baseUrl: string, apiKey: string, model = 'gpt-4o-mini'): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}
