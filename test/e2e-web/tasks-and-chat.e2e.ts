import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { closeSession, loginThroughUi, startConsole, WatchedPage, type TestServer } from './harness';
import { apiFromPage, expectToast } from './operations-helpers';
import { openScratchDb } from './scratch-db';

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** A loopback "chat site" and image host: the chat tests must never load a public URL. */
function startLoopbackSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/image.png')) {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(PNG_1X1);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>loopback chat</title><p id="seen">${decodeURIComponent(request.url ?? '')}</p>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

describe('drawing log, task log and embedded chat', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let site: { server: Server; url: string };

  beforeAll(async () => {
    site = await startLoopbackSite();
    ({ server, browser, watched } = await startConsole());
    const { page } = watched;
    for (const [key, value] of [
      ['DrawingEnabled', 'true'],
      ['TaskEnabled', 'true'],
      ['ServerAddress', server.baseUrl],
      // The drawing's image lives on loopback; the gateway's image proxy may fetch it only with this on.
      ['fetch_setting.allow_private_ip', 'true'],
      ['Chats', JSON.stringify([{ 'Loop Chat': `${site.url}/chat?key={key}&address={address}` }])],
    ]) {
      expect((await apiFromPage(page, 'PUT', '/api/option/', { key, value })).success).toBe(true);
    }
    // Channels for the seeded tasks: the polling job asks them (the loopback site answers no
    // task list, so the tasks stay as seeded) instead of failing tasks whose channel is gone.
    const channelIds: number[] = [];
    for (const [type, models] of [[2, 'mj_imagine'], [36, 'suno_music']] as const) {
      const created = await apiFromPage<{ id: number }[]>(page, 'POST', '/api/channel/', { name: `task-${type}`, type, key: 'k', base_url: site.url, models, group: 'default' });
      expect(created.success).toBe(true);
      channelIds.push(created.data[0].id);
    }
    const [drawingChannel, taskChannel] = channelIds;
    const now = Date.now();
    const db = openScratchDb(server.dbPath);
    const drawing = db.prepare(
      `INSERT INTO midjourneys (code, user_id, action, mj_id, prompt, prompt_en, submit_time, start_time, finish_time, image_url, status, progress, fail_reason, channel_id, quota, created_at)
       VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${drawingChannel}, 50000, ?)`,
    );
    drawing.run(1, 'IMAGINE', 'mj-ok', 'a red fox in the snow, watercolor, highly detailed --v 6', 'a red fox in the snow', now - 90_000, now - 85_000, now - 40_000, `${site.url}/image.png`, 'SUCCESS', '100%', '', Math.floor(now / 1000));
    drawing.run(1, 'UPSCALE', 'mj-fail', 'a blue whale', '', now - 20_000, now - 19_000, now - 10_000, '', 'FAILURE', '', 'job banned by moderator', Math.floor(now / 1000));
    drawing.run(21, 'VARIATION', 'mj-run', 'a green frog', '', now - 5_000, now - 4_000, 0, '', 'IN_PROGRESS', '45%', '', Math.floor(now / 1000));
    const task = db.prepare(
      `INSERT INTO tasks (created_at, updated_at, task_id, platform, user_id, channel_id, quota, action, status, fail_reason, submit_time, start_time, finish_time, progress, properties, data)
       VALUES (?, ?, ?, 'suno', 1, ${taskChannel}, 50000, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const seconds = Math.floor(now / 1000);
    task.run(seconds, seconds, 'suno-ok', 'MUSIC', 'SUCCESS', '', seconds - 100, seconds - 90, seconds - 30, '100%', '{"prompt":"a song about foxes"}', '[{"id":"clip-1","title":"Foxes"}]');
    task.run(seconds, seconds, 'suno-fail', 'LYRICS', 'FAILURE', 'generation failed', seconds - 50, seconds - 45, seconds - 40, '100%', '{"prompt":"x"}', null);
    task.run(seconds, seconds, 'suno-run', 'MUSIC', 'IN_PROGRESS', '', seconds - 10, seconds - 9, 0, '50%', '{"prompt":"y"}', null);
    db.close();
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
    site.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
  });

  async function useLanguage(language: 'zh' | 'en') {
    await watched.page.evaluate((value) => localStorage.setItem('i18nextLng', value), language);
  }

  test.each(['zh', 'en'] as const)('drawing log in %s: columns, colours, callback banner, image viewer and long prompt', async (language) => {
    const { page } = watched;
    await useLanguage(language);
    await watched.goto('/midjourney');
    await page.getByText(language === 'zh' ? '绘图日志' : 'Drawing log').first().waitFor();
    // Callbacks are off and the browser flag is not set: admins see the banner.
    await page.getByTestId('drawing-callback-banner').waitFor();
    const ok = page.locator('tr', { hasText: 'mj-ok' });
    await ok.waitFor();
    expect(await ok.getByText(language === 'zh' ? '成功' : 'Success').count()).toBeGreaterThan(0);
    // 50 s: green; the failed task's 10 s too; the channel tag shows the channel.
    expect(await ok.locator('[data-testid^="drawing-duration-"]').getAttribute('class')).toContain('colorSuccess');
    expect(await ok.locator('[data-testid^="drawing-channel-"]').textContent()).toBe('1');
    const failed = page.locator('tr', { hasText: 'mj-fail' });
    expect(await failed.locator('.MuiLinearProgress-root').getAttribute('class')).toContain('colorWarning');
    expect(await page.locator('tr', { hasText: 'mj-run' }).getByText('45%').count()).toBe(1);
    await watched.screenshot(`drawing-log-${language}`);

    await ok.locator('[data-testid^="drawing-prompt-"]').click();
    await page.getByTestId('task-text-dialog').getByText('highly detailed --v 6').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('task-text-dialog').waitFor({ state: 'detached' });

    await ok.locator('[data-testid^="drawing-image-"]').click();
    const image = page.getByTestId('drawing-image-viewer');
    await image.waitFor();
    expect(await image.getAttribute('src')).toBe(`${server.baseUrl}/mj/image/mj-ok`);
    await page.waitForFunction(() => {
      const element = document.querySelector('[data-testid="drawing-image-viewer"]') as HTMLImageElement | null;
      return !!element && element.complete && element.naturalWidth === 1;
    });
    await page.keyboard.press('Escape');

    // With callbacks on, the status (and the browser flag it writes) hides the banner.
    await apiFromPage(page, 'PUT', '/api/option/', { key: 'MjNotifyEnabled', value: 'true' });
    await watched.goto('/midjourney');
    await page.locator('tr', { hasText: 'mj-ok' }).waitFor();
    expect(await page.getByTestId('drawing-callback-banner').count()).toBe(0);
    await apiFromPage(page, 'PUT', '/api/option/', { key: 'MjNotifyEnabled', value: 'false' });
  });

  test.each(['zh', 'en'] as const)('task log in %s: circular progress, statuses and the full record as JSON', async (language) => {
    const { page } = watched;
    await useLanguage(language);
    await watched.goto('/task');
    await page.getByText(language === 'zh' ? '任务日志' : 'Task log').first().waitFor();
    const running = page.locator('tr', { hasText: 'suno-run' });
    await running.waitFor();
    await running.getByText('50%').waitFor();
    await running.getByText(language === 'zh' ? '执行中' : 'In progress').waitFor();
    await page.locator('tr', { hasText: 'suno-fail' }).getByText(language === 'zh' ? '失败' : 'Failed', { exact: true }).waitFor();
    await watched.screenshot(`task-log-${language}`);
    await page.locator('tr', { hasText: 'suno-ok' }).locator('[data-testid^="task-id-"]').click();
    const dialog = page.getByTestId('task-text-dialog');
    await dialog.getByText('"title": "Foxes"').waitFor();
    await page.keyboard.press('Escape');
    // The task-id filter narrows the list.
    await page.getByTestId('task-filter-id').fill('suno-fail');
    await page.getByTestId('task-query').click();
    await page.locator('tr', { hasText: 'suno-run' }).waitFor({ state: 'detached' });
    expect(await page.locator('tr', { hasText: 'suno-fail' }).count()).toBe(1);
  });

  test.each(['zh', 'en'] as const)('/chat/0 in %s: the loopback chat link with the first enabled token and the server address', async (language) => {
    const { page } = watched;
    await useLanguage(language);
    const created = await apiFromPage<{ key: string }[]>(page, 'POST', '/api/token/', { name: `chat-${language}`, remain_quota: 1000, unlimited_quota: true });
    expect(created.success).toBe(true);
    const tokens = await apiFromPage<{ items: { key: string; status: number }[] }>(page, 'GET', '/api/token/?p=1&size=100');
    const firstEnabled = tokens.data.items.find((token) => token.status === 1)!.key;
    await watched.goto('/token');
    await page.getByTestId('sidebar').getByText('Loop Chat').click();
    await page.waitForURL('**/chat/0');
    const frame = page.getByTestId('chat-frame');
    await frame.waitFor();
    const src = await frame.getAttribute('src');
    expect(src).toBe(`${site.url}/chat?key=${firstEnabled}&address=${encodeURIComponent(server.baseUrl)}`);
    await page.frameLocator('[data-testid="chat-frame"]').locator('#seen').waitFor();
    // No sidebar on chat pages.
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await watched.screenshot(`chat-${language}`);
  });

  test('/chat2link goes to the loopback chat link with the first enabled token and the server address', async () => {
    const { page } = watched;
    const tokens = await apiFromPage<{ items: { key: string; status: number }[] }>(page, 'GET', '/api/token/?p=1&size=100');
    const firstEnabled = tokens.data.items.find((token) => token.status === 1)!.key;
    const target = `${site.url}/chat?key=${firstEnabled}&address=${encodeURIComponent(server.baseUrl)}`;
    await page.goto('/chat2link');
    await page.waitForURL(target);
    expect(await page.locator('#seen').textContent()).toBe(`/chat?key=${firstEnabled}&address=${server.baseUrl}`);
    await watched.goto('/token');
  });

  test.each(['zh', 'en'] as const)('at phone width in %s: the drawing log, the task log and /chat/0 fit the screen', async (language) => {
    const phone = await WatchedPage.open(browser, server.baseUrl, 390);
    const { page } = phone;
    try {
      await loginThroughUi(phone, 'root', '12345678');
      await page.evaluate((value) => localStorage.setItem('i18nextLng', value), language);
      const fitsScreen = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      for (const [path, table, rowText, title] of [
        ['/midjourney', 'drawings-table', 'mj-ok', language === 'zh' ? '绘图日志' : 'Drawing log'],
        ['/task', 'tasks-table', 'suno-ok', language === 'zh' ? '任务日志' : 'Task log'],
      ] as const) {
        await phone.goto(path);
        await page.getByText(title).first().waitFor();
        await page.locator('tr', { hasText: rowText }).waitFor();
        // The wide table scrolls inside its card; the page itself does not scroll sideways.
        expect(await page.getByTestId(table).evaluate((element) => element.parentElement!.scrollWidth > element.parentElement!.clientWidth)).toBe(true);
        expect(await fitsScreen()).toBe(true);
      }
      await phone.goto('/chat/0');
      const frame = page.getByTestId('chat-frame');
      await frame.waitFor();
      await page.frameLocator('[data-testid="chat-frame"]').locator('#seen').waitFor();
      const box = (await frame.boundingBox())!;
      expect(box.width).toBeGreaterThan(350);
      expect(box.width).toBeLessThanOrEqual(390);
      expect(await fitsScreen()).toBe(true);
    } finally {
      phone.expectNoConsoleErrors();
      await phone.close();
    }
  });

  test('/chat/0 without an enabled token shows the error, then goes to /token', async () => {
    const { page } = watched;
    await useLanguage('zh');
    const tokens = await apiFromPage<{ items: { id: number }[] }>(page, 'GET', '/api/token/?p=1&size=100');
    for (const token of tokens.data.items) await apiFromPage(page, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 2 });
    await watched.goto('/chat/0');
    await expectToast(page, 'error', '没有可用的令牌');
    await page.waitForURL('**/token');
  });
});
