import type { Browser, Page } from 'playwright-core';
import { closeSession, launchBrowser, loginThroughUi, ROOT_USER, startServer, WatchedPage, type TestServer } from './harness';
import { MOCK_MODELS, MockOpenAi, MOCK_TEXT } from './mock-openai';
import { apiFromPage, expectToast, readClipboard, rowId } from './operations-helpers';
import { openScratchDb } from './scratch-db';

/**
 * A newcomer's first hour: set up, add a channel on a mock upstream, fetch its models and test it,
 * create and copy a token, call the API with it, read the charge in the usage log, chat in the
 * playground, find the model on the pricing page; then the rules around those screens.
 */
describe('operations console: the first hour', () => {
  let server: TestServer;
  let mock: MockOpenAi;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let tokenKey = '';
  let channelId = 0;

  beforeAll(async () => {
    mock = await new MockOpenAi().start();
    server = await startServer();
    browser = await launchBrowser();
    watched = await WatchedPage.open(browser, server.baseUrl);
    page = watched.page;
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
    await mock?.stop();
  });

  test('set up the system and sign in: the console opens on the token page', async () => {
    await watched.goto('/');
    await page.waitForURL('**/setup');
    await page.locator('input[name="username"]').fill(ROOT_USER.username);
    await page.locator('input[name="password"]').fill(ROOT_USER.password);
    await page.locator('input[name="confirmPassword"]').fill(ROOT_USER.password);
    await page.getByTestId('setup-submit').click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15000 });
    await loginThroughUi(watched, ROOT_USER.username, ROOT_USER.password);
    expect(new URL(page.url()).pathname).toBe('/token');
    const sidebar = page.getByTestId('sidebar');
    for (const label of ['操练场', '令牌管理', '使用日志', '渠道管理', '用户管理']) await sidebar.getByText(label, { exact: true }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: '模型价格' }).waitFor();
    await watched.screenshot('tokens-empty');
    // The mock upstream listens on loopback, which the outbound guard refuses until root allows private networks.
    expect((await apiFromPage(page, 'PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' })).success).toBe(true);
  });

  test('the channel editor explains what is wrong before anything is sent', async () => {
    await watched.goto('/channel');
    await watched.screenshot('channels-empty');
    await page.getByTestId('add-channel').click();
    await page.waitForURL('**/channel/add');
    const drawer = page.getByTestId('channel-editor');
    await drawer.getByTestId('channel-name').waitFor();
    expect(await drawer.getByTestId('channel-priority').inputValue()).toBe('0');
    expect(await drawer.getByTestId('channel-weight').inputValue()).toBe('0');
    expect(await drawer.getByTestId('channel-auto-ban').locator('input').isChecked()).toBe(true);

    await drawer.getByTestId('channel-submit').click();
    await drawer.getByText('请填写渠道名称和渠道密钥！').first().waitFor();
    expect(await drawer.getByText('请填写渠道名称和渠道密钥！').count()).toBe(2);
    await drawer.getByText('请至少选择一个模型！').waitFor();

    await drawer.getByTestId('channel-model-mapping').fill('{"gpt-4o": ');
    await drawer.getByTestId('channel-priority').fill('-1000');
    await drawer.getByTestId('channel-weight').fill('-1');
    await drawer.getByTestId('channel-submit').click();
    await drawer.getByText('模型映射必须是合法的 JSON 格式！').waitFor();
    await drawer.getByText('优先级必须是不小于 -999 的整数').waitFor();
    await drawer.getByText('权重必须是非负整数').waitFor();

    // Custom models: trimmed, comma-split, duplicates reported.
    await drawer.getByTestId('channel-models-custom').fill(' alpha, beta ,alpha ');
    await drawer.getByTestId('channel-models-custom-add').click();
    await drawer.getByText('已选择 2 个模型').waitFor();
    await drawer.getByTestId('channel-models-custom').fill('beta');
    await drawer.getByTestId('channel-models-custom-add').click();
    await expectToast(page, 'warning', '部分模型已存在：beta');
    await drawer.getByRole('button', { name: '清除所有模型' }).click();

    await drawer.getByTestId('channel-base-url').fill(`${mock.url}/v1/`);
    await drawer.getByTestId('channel-v1-warning').waitFor();
    await watched.screenshot('channel-editor-validation');

    // Spark (type 18) gets its version hint.
    await drawer.getByTestId('channel-type').click();
    await page.getByRole('option', { name: 'iFlytek Spark' }).click();
    expect(await drawer.getByTestId('channel-other').getAttribute('placeholder')).toBe('v2.1');
    // A native provider shows its key format and default address, from the relay's provider table.
    await drawer.getByTestId('channel-type').click();
    await page.getByRole('option', { name: 'Anthropic Claude' }).click();
    // (The key's format shows once the key field holds no error.)
    await drawer.getByTestId('channel-key').fill('sk-ant-example');
    await drawer.getByText('密钥格式：sk-ant-…').waitFor();
    await drawer.getByTestId('channel-key').fill('');
    expect(await drawer.getByTestId('channel-base-url').getAttribute('placeholder')).toBe('留空使用 https://api.anthropic.com');
    // The type's own models fill in from GET /api/models, cached as channel_models.
    await drawer.getByTestId('channel-fill-models').click();
    const cached = await page.evaluate(() => JSON.parse(localStorage.getItem('channel_models') ?? '{}') as Record<string, string[]>);
    expect(cached['14'].length).toBeGreaterThan(0);
    expect(cached['14'].every((model) => model.startsWith('claude'))).toBe(true);
    await drawer.getByText(`已选择 ${cached['14'].length} 个模型`).waitFor();
    await drawer.getByRole('button', { name: '清除所有模型' }).click();
    // Bedrock explains its composite key; Vertex takes a whole JSON key file and names its region field.
    await drawer.getByTestId('channel-type').click();
    await page.getByRole('option', { name: 'AWS Claude' }).click();
    await drawer.getByTestId('channel-key').fill('AKIA|secret|us-east-1');
    await drawer.getByText('密钥格式：AK|SK|region — AWS 访问密钥 ID、私有访问密钥和区域，用 | 连接').waitFor();
    await drawer.getByTestId('channel-type').click();
    await page.getByRole('option', { name: 'Vertex AI' }).click();
    const keyFile = drawer.getByTestId('channel-key');
    expect(await keyFile.evaluate((element) => element.tagName)).toBe('TEXTAREA');
    await keyFile.fill('{"type": "service_account",\n "project_id": ');
    await drawer.getByTestId('channel-submit').click();
    await drawer.getByText('密钥须为下载得到的服务账号 JSON 密钥文件').waitFor();
    await keyFile.fill('{\n  "type": "service_account"\n}');
    await drawer.getByText('粘贴完整的服务账号 JSON 密钥文件', { exact: false }).waitFor();
    expect(await drawer.getByTestId('channel-other').getAttribute('placeholder')).toBe('us-central1');
    await drawer.getByText('Vertex AI 区域；留空使用 us-central1，填 global 使用全球端点').waitFor();
    await watched.screenshot('channel-editor-vertex');
    await drawer.getByTestId('channel-fetch-models').click();
    await expectToast(page, 'success', /获取模型列表成功，共 \d+ 个/);
    await expectToast(page, 'info', '该服务商没有模型列表接口，以下是网关已知它提供的模型');
    await drawer.getByRole('button', { name: '清除所有模型' }).click();
    await keyFile.fill('');
    // The newer providers explain their keys and "other" fields from the catalogue too; a retired type is not offered.
    await drawer.getByTestId('channel-type').click();
    expect(await page.getByRole('option', { name: 'PaLM2' }).count()).toBe(0);
    await page.getByRole('option', { name: 'Tencent Hunyuan' }).click();
    await drawer.getByTestId('channel-key').fill('1250000000|AKIDexample|secret');
    await drawer.getByText('密钥格式：AppId|SecretId|SecretKey — 腾讯云账号的 AppId、SecretId 与 SecretKey，用 | 连接').waitFor();
    await drawer.getByTestId('channel-key').fill('');
    await drawer.getByTestId('channel-type').click();
    await page.getByRole('option', { name: 'Cloudflare' }).click();
    await drawer.getByText('Cloudflare 控制台地址中的账户 ID，必填').waitFor();
    await drawer.getByTestId('channel-type').click();
    await page.getByRole('option', { name: 'OpenAI', exact: true }).click();
  });

  test('add an OpenAI channel on the mock upstream, fetch its models and test it', async () => {
    const drawer = page.getByTestId('channel-editor');
    await drawer.getByTestId('channel-name').fill('mock-openai');
    await drawer.getByTestId('channel-key').fill('sk-mock-upstream');
    await drawer.getByTestId('channel-model-mapping').fill('');
    await drawer.getByTestId('channel-priority').fill('0');
    await drawer.getByTestId('channel-weight').fill('0');
    await drawer.getByTestId('channel-fetch-models').click();
    await expectToast(page, 'success', `获取模型列表成功，共 ${MOCK_MODELS.length} 个`);
    await drawer.getByText(`已选择 ${MOCK_MODELS.length} 个模型`).waitFor();
    await watched.screenshot('channel-editor');

    // The /v1 ending asks for confirmation; cancelling keeps the drawer open.
    await drawer.getByTestId('channel-submit').click();
    const confirm = page.getByRole('dialog', { name: 'Base URL 以 /v1 结尾' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: '取消' }).click();
    await drawer.getByTestId('channel-base-url').fill(`${mock.url}/`);
    await drawer.getByTestId('channel-submit').click();
    await expectToast(page, 'success', '已创建 1 个渠道');
    await page.waitForURL('**/channel');
    channelId = await rowId(page, 'channel-row-', 'mock-openai');
    const created = await apiFromPage<{ base_url: string; models: string }>(page, 'GET', `/api/channel/${channelId}`);
    expect(created.data.base_url).toBe(mock.url);
    expect(created.data.models.split(',')).toEqual(MOCK_MODELS);

    expect(await page.getByTestId(`channel-time-${channelId}`).getAttribute('data-band')).toBe('untested');
    await page.getByTestId(`channel-test-${channelId}`).click();
    await expectToast(page, 'success', /渠道 mock-openai 测试成功，耗时 [\d.]+ 秒。/);
    expect(await page.getByTestId(`channel-time-${channelId}`).getAttribute('data-band')).toBe('fast');
    expect(await page.getByTestId(`channel-time-${channelId}`).textContent()).toMatch(/^[\d.]+ 秒$/);
    await watched.screenshot('channels');
  });

  test('create a token, copy its key and call /v1/chat/completions with it', async () => {
    await watched.goto('/token');
    await page.getByTestId('token-notice').waitFor();
    await page.getByTestId('add-token').click();
    const drawer = page.getByTestId('token-drawer');
    await drawer.getByTestId('token-name').fill('first-key');
    expect(await drawer.getByTestId('token-quota').inputValue()).toBe('500000');
    await drawer.getByTestId('token-expiry').fill('next tuesday');
    await drawer.getByTestId('token-submit').click();
    await drawer.getByText('过期时间格式错误！').waitFor();
    await drawer.getByTestId('token-expiry-month').click();
    expect(await drawer.getByTestId('token-expiry').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await drawer.getByTestId('token-count').fill('0');
    await drawer.getByTestId('token-submit').click();
    await drawer.getByText('新建数量必须是正整数').waitFor();
    await drawer.getByTestId('token-count').fill('1');
    await drawer.getByTestId('token-expiry-never').click();
    await watched.screenshot('token-drawer');
    await drawer.getByTestId('token-submit').click();
    await expectToast(page, 'success', '已创建 1 个令牌');

    const id = await rowId(page, 'token-row-', 'first-key');
    expect(await page.getByTestId(`token-status-${id}`).textContent()).toBe('已启用');
    await page.getByTestId(`token-copy-${id}`).click();
    await expectToast(page, 'success', '已复制令牌到剪贴板');
    tokenKey = await readClipboard(page);
    expect(tokenKey).toMatch(/^sk-[A-Za-z0-9]+$/);

    // "Open in chat" fills {key} and {address} into the configured link (window.open is stubbed: no external site).
    await page.evaluate(() => {
      window.open = (url?: string | URL) => {
        (window as unknown as { __opened?: string }).__opened = String(url);
        return null;
      };
    });
    await page.getByTestId(`token-chat-${id}`).click();
    await page.getByRole('menuitem', { name: 'ChatGPT Next Web' }).click();
    const opened = await page.evaluate(() => (window as unknown as { __opened?: string }).__opened ?? '');
    expect(opened).toContain(`"key":"${tokenKey}"`);
    expect(opened).toContain(`"url":"${encodeURIComponent(server.baseUrl)}"`);
    await watched.screenshot('tokens');

    const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] }),
    });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(response.status).toBe(200);
    expect(body.choices[0].message.content).toBe(MOCK_TEXT);
  });

  test('the call shows in the usage log with its charge explained', async () => {
    await watched.goto('/log');
    const row = page.locator('tr[data-testid^="log-row-"]', { hasText: 'gpt-4o-mini' }).first();
    // Settlement is batched: query again until the entry lands.
    for (let attempt = 0; attempt < 20 && !(await row.isVisible()); attempt += 1) {
      await page.waitForTimeout(500);
      await page.getByTestId('log-search').click();
      await page.waitForLoadState('networkidle');
    }
    const id = await rowId(page, 'log-row-', 'gpt-4o-mini');
    // gpt-4o-mini: model ratio 0.075, completion ratio 4, group ratio 1; the mock reports 12 + 7 tokens.
    expect(await page.getByTestId(`log-cost-${id}`).textContent()).toBe('$0.000006');
    expect(await page.getByTestId(`log-channel-${id}`).textContent()).toBe(String(channelId));
    await page.getByTestId(`log-expand-${id}`).click();
    expect(await page.getByTestId(`log-formula-${id}`).textContent()).toBe('1 × 0.075 × (12 + 7 × 4) / 500000 = $0.000006');
    expect(await page.getByTestId(`log-model-ratio-${id}`).textContent()).toBe('0.075');
    await page.getByTestId('log-stat-quota').waitFor();
    await page.getByTestId('log-filter-channel').waitFor();
    await page.getByTestId('log-filter-username').waitFor();
    await page.getByTestId(`log-user-${id}`).click();
    await page.getByTestId('log-user-info').getByText('用户名：root').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '关闭' }).click();
    await watched.screenshot('logs');

    // Column choice is remembered under logs-table-columns.
    await page.getByTestId('columns-menu').click();
    await page.getByTestId('column-toggle-group').click();
    await page.keyboard.press('Escape');
    await watched.goto('/log');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('logs-table-columns') ?? '{}').group)).toBe(false);
    expect(await page.getByTestId('logs-table').getByRole('columnheader', { name: '分组' }).count()).toBe(0);
    await page.getByTestId('columns-menu').click();
    await page.getByTestId('column-toggle-group').click();
    await page.keyboard.press('Escape');
  });

  test('chat in the playground: the answer streams in and is rendered safely', async () => {
    await watched.goto('/playground');
    expect(await page.getByTestId('pg-system-prompt').inputValue()).toMatch(/^You are a helpful assistant/);
    await page.getByTestId('pg-model').getByText('gpt-4o-mini').waitFor();
    await page.getByTestId('pg-input').fill('Tell me something');
    await page.getByTestId('pg-send').click();
    const reply = page.getByTestId('chat-message-assistant').last();
    await page.waitForFunction(() => document.querySelector('[data-testid="chat-message-assistant"]')?.getAttribute('data-status') === 'incomplete');
    await page.waitForFunction(() => document.querySelector('[data-testid="chat-message-assistant"]')?.getAttribute('data-status') === 'complete', undefined, { timeout: 20000 });
    expect(await reply.textContent()).toContain('Hello from the mock upstream!');
    expect(await reply.locator('strong').textContent()).toBe('mock');
    expect(await reply.locator('script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await watched.screenshot('playground');
    await page.getByTestId('pg-clear').click();
    expect(await page.getByTestId('chat-message-assistant').count()).toBe(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('pg-panel-toggle').click();
    await page.getByTestId('pg-system-prompt').waitFor();
    await page.setViewportSize({ width: 1280, height: 860 });

    await watched.goto('/playground?expired=true');
    await page.getByText('未登录或登录已过期，请重新登录！').waitFor();
  });

  test('the model is on the pricing page, for members and visitors', async () => {
    await watched.goto('/pricing');
    await page.getByTestId('pricing-banner').getByText('您的分组为 default，分组倍率为 1。').waitFor();
    expect(await page.getByTestId('pricing-available-gpt-4o-mini').getAttribute('data-available')).toBe('true');
    expect(await page.getByTestId('pricing-price-gpt-4o-mini').textContent()).toContain('提示 $0.15 / 1M tokens');
    await page.getByTestId('pricing-search').fill('G4M');
    await page.getByTestId('pricing-row-gpt-4o-mini').waitFor();
    expect(await page.getByTestId('pricing-row-mock-small').count()).toBe(0);
    await page.getByTestId('pricing-search').fill('');
    await page.getByTestId('pricing-row-gpt-4o-mini').getByRole('checkbox').check();
    await page.getByTestId('pricing-copy-selected').click();
    await expectToast(page, 'success', '已复制 1 个模型名称');
    expect(await readClipboard(page)).toBe('gpt-4o-mini');
    await page.getByTestId('pricing-show-ratio').click();
    await page.getByTestId('pricing-formula').waitFor();
    await page.getByTestId('pricing-group-gpt-4o-mini-default').click();
    await expectToast(page, 'info', '已切换到分组 default');
    await watched.screenshot('pricing');

    const visitor = await WatchedPage.open(browser, server.baseUrl);
    await visitor.goto('/pricing');
    await visitor.page.getByTestId('pricing-banner').getByText('您还未登录').waitFor();
    await visitor.page.getByTestId('pricing-row-gpt-4o-mini').waitFor();
    await visitor.screenshot('pricing-visitor');
    visitor.expectNoConsoleErrors();
    await visitor.close();
  });

  test('tag mode: per-tag enable-all, disable-all and the tag editor', async () => {
    const created = await apiFromPage<{ id: number }[]>(page, 'POST', '/api/channel/', {
      mode: 'batch',
      name: 'team-a',
      type: 1,
      key: 'sk-team-1\nsk-team-2',
      base_url: mock.url,
      models: 'mock-small',
      group: 'default',
      tag: 'team-a',
    });
    expect(created.data).toHaveLength(2);
    await watched.goto('/channel');
    await page.getByTestId('channels-tag-mode').click();
    await page.getByTestId('tag-row-team-a').waitFor();
    const count = page.getByTestId('tag-count-team-a');
    expect(await count.textContent()).toBe('已启用 2 / 共 2');
    await page.getByTestId('tag-disable-team-a').click();
    await expectToast(page, 'success', '操作成功完成！');
    await page.waitForFunction(() => document.querySelector('[data-testid="tag-count-team-a"]')?.textContent === '已启用 0 / 共 2');
    await page.getByTestId('tag-enable-team-a').click();
    await expectToast(page, 'success', '操作成功完成！');
    await page.waitForFunction(() => document.querySelector('[data-testid="tag-count-team-a"]')?.textContent === '已启用 2 / 共 2');

    await page.getByTestId('tag-edit-team-a').click();
    const drawer = page.getByTestId('tag-editor');
    await drawer.getByTestId('tag-submit').click();
    await expectToast(page, 'info', '没有任何修改！');
    await drawer.getByTestId('tag-priority').fill('1.5');
    await drawer.getByTestId('tag-weight').fill('-2');
    await drawer.getByTestId('tag-model-mapping').fill('not json');
    await drawer.getByTestId('tag-submit').click();
    await drawer.getByText('优先级必须是整数').waitFor();
    await drawer.getByText('权重必须是非负整数').waitFor();
    await drawer.getByText('模型映射必须是合法的 JSON 格式！').waitFor();
    await watched.screenshot('channel-tag-editor');
    await drawer.getByTestId('tag-priority').fill('5');
    await drawer.getByTestId('tag-weight').fill('3');
    await drawer.getByTestId('tag-model-mapping').fill('');
    await drawer.getByTestId('tag-submit').click();
    await expectToast(page, 'success', '已更新 2 个渠道');
    await page.getByTestId('tag-expand-team-a').click();
    for (const channel of created.data) expect(await page.getByTestId(`channel-priority-${channel.id}`).inputValue()).toBe('5');
    await watched.screenshot('channels-tag-mode');
    await page.getByTestId('channels-tag-mode').click();
    await page.locator(`[data-testid="channel-row-${channelId}"]`).waitFor();
  });

  test('channel rows: in-place priority, enable/disable, batch tag, delete disabled, remembered columns', async () => {
    await watched.goto('/channel');
    // The channel has served a call: it shows the weight the relay draws it with and its closed breaker, with the figures in a tooltip.
    const health = page.getByTestId(`channel-health-${channelId}`);
    expect(await health.getAttribute('data-breaker')).toBe('closed');
    await health.hover();
    await page.getByRole('tooltip').filter({ hasText: /熔断器：闭合 · 权重 0 → 0 · 延迟 \d+ 毫秒 · 错误率 0\.0%/ }).waitFor();
    const priority = page.getByTestId(`channel-priority-${channelId}`);
    await priority.fill('abc');
    await priority.press('Enter');
    await page.getByText('优先级必须是不小于 -999 的整数').waitFor();
    await priority.fill('10');
    await priority.press('Enter');
    await expectToast(page, 'success', '已保存');

    await page.getByTestId(`channel-disable-${channelId}`).click();
    await expectToast(page, 'success', '已保存');
    expect(await page.getByTestId(`channel-status-${channelId}`).textContent()).toBe('已手动禁用');
    await page.getByTestId(`channel-enable-${channelId}`).click();
    await expectToast(page, 'success', '已保存');
    expect(await page.getByTestId(`channel-status-${channelId}`).textContent()).toBe('已启用');

    await page.getByTestId('channels-set-tag').click();
    await expectToast(page, 'error', '请先选择要设置标签的渠道！');
    await page.getByTestId('channels-delete-selected').click();
    await expectToast(page, 'error', '请先选择要删除的渠道！');
    await page.getByTestId(`channel-select-${channelId}`).click();
    await page.getByTestId('channels-set-tag').click();
    await page.getByTestId('set-tag-submit').click();
    await page.getByText('请输入标签名称').waitFor();
    await page.getByTestId('set-tag-input').fill('primary');
    await page.getByTestId('set-tag-submit').click();
    await expectToast(page, 'success', '已为 1 个渠道设置标签');

    // One team channel disabled, then "delete disabled" removes exactly it.
    const teamId = await rowId(page, 'channel-row-', 'team-a');
    await page.getByTestId(`channel-disable-${teamId}`).click();
    await expectToast(page, 'success', '已保存');
    await page.getByTestId('channels-delete-disabled').click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await expectToast(page, 'success', '已删除所有禁用渠道，共计 1 个');

    await page.getByTestId('channels-test-all').click();
    await expectToast(page, 'info', /.+/);

    await page.getByTestId('columns-menu').click();
    await page.getByTestId('column-toggle-balance').click();
    await page.keyboard.press('Escape');
    await watched.goto('/channel');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('channels-table-columns') ?? '{}').balance)).toBe(false);
    expect(await page.getByTestId('channels-table').getByRole('columnheader', { name: '已用 / 余额' }).count()).toBe(0);
    await page.getByTestId('columns-menu').click();
    await page.getByTestId('column-toggle-balance').click();
    await page.keyboard.press('Escape');

    await page.getByTestId(`channel-edit-${channelId}`).click();
    await page.waitForURL(`**/channel/edit/${channelId}`);
    const drawer = page.getByTestId('channel-editor');
    await drawer.getByTestId('channel-name').waitFor();
    expect(await drawer.getByTestId('channel-name').inputValue()).toBe('mock-openai');
    expect(await drawer.getByTestId('channel-batch').count()).toBe(0);
    await drawer.getByTestId('channel-submit').click();
    await expectToast(page, 'success', '渠道更新成功！');
  });

  test('tokens: expired and exhausted tokens cannot be enabled; batch copy and delete', async () => {
    const zero = await apiFromPage<{ id: number }[]>(page, 'POST', '/api/token/', { name: 'zero', remain_quota: 0 });
    const soon = await apiFromPage<{ id: number }[]>(page, 'POST', '/api/token/', { name: 'soon', remain_quota: 1000, expired_time: Math.floor(Date.now() / 1000) + 3600 });
    const db = openScratchDb(server.dbPath);
    db.prepare('UPDATE tokens SET expired_time = ? WHERE id = ?').run(Math.floor(Date.now() / 1000) - 60, soon.data[0].id);
    db.close();
    const zeroId = zero.data[0].id;
    const soonId = soon.data[0].id;

    await watched.goto('/token');
    expect(await page.getByTestId(`token-status-${zeroId}`).textContent()).toBe('已耗尽');
    expect(await page.getByTestId(`token-status-${soonId}`).textContent()).toBe('已过期');
    for (const id of [zeroId, soonId]) {
      await page.getByTestId(`token-disable-${id}`).click();
      await expectToast(page, 'success', '操作成功完成！');
      expect(await page.getByTestId(`token-enable-${id}`).isDisabled()).toBe(true);
    }
    const firstId = await rowId(page, 'token-row-', 'first-key');
    await page.getByTestId(`token-disable-${firstId}`).click();
    await expectToast(page, 'success', '操作成功完成！');
    expect(await page.getByTestId(`token-status-${firstId}`).textContent()).toBe('已禁用');
    await page.getByTestId(`token-enable-${firstId}`).click();
    await expectToast(page, 'success', '操作成功完成！');
    expect(await page.getByTestId(`token-status-${firstId}`).textContent()).toBe('已启用');
    await watched.screenshot('tokens-states');

    await page.getByTestId('tokens-copy-selected').click();
    await expectToast(page, 'error', '请至少选择一个令牌！');
    await page.getByTestId(`token-select-${zeroId}`).click();
    await page.getByTestId(`token-select-${soonId}`).click();
    await page.getByTestId('tokens-copy-selected').click();
    await expectToast(page, 'success', '已复制 2 个令牌到剪贴板');
    expect((await readClipboard(page)).split('\n')).toHaveLength(2);
    await page.getByTestId('tokens-delete-selected').click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await expectToast(page, 'success', '已删除 2 个令牌');
    expect(await page.getByTestId(`token-row-${zeroId}`).count()).toBe(0);
  });

  test('an ordinary user sees no admin pages, columns or filters', async () => {
    const created = await apiFromPage<null>(page, 'POST', '/api/user/', { username: 'alice', display_name: 'Alice', password: 'alice-pass-1' });
    expect(created.success).toBe(true);
    const alice = await WatchedPage.open(browser, server.baseUrl);
    await loginThroughUi(alice, 'alice', 'alice-pass-1');
    const sidebar = alice.page.getByTestId('sidebar');
    await sidebar.getByText('令牌管理').waitFor();
    expect(await sidebar.getByText('渠道管理').count()).toBe(0);
    await alice.goto('/log');
    await alice.page.getByTestId('log-filter-token').waitFor();
    expect(await alice.page.getByTestId('log-filter-channel').count()).toBe(0);
    expect(await alice.page.getByTestId('log-filter-username').count()).toBe(0);
    const headers = await alice.page.getByTestId('logs-table').getByRole('columnheader').allTextContents();
    for (const adminColumn of ['渠道', '用户', '重试']) expect(headers).not.toContain(adminColumn);
    await alice.screenshot('logs-user');
    await alice.goto('/channel');
    // The redirect follows the signed-in user's role, which the console may still be reading when the network goes idle.
    await alice.page.waitForURL((url) => url.pathname === '/');
    alice.expectNoConsoleErrors();
    await alice.close();
  });

  test('every screen is translated in English', async () => {
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    for (const path of ['/channel', '/channel/add', '/token', '/log', '/playground', '/pricing']) {
      await watched.goto(path);
      await page.waitForTimeout(200);
    }
    await watched.goto('/channel');
    await page.getByRole('heading', { name: 'Channels' }).waitFor();
    await watched.screenshot('channels-en');
    await watched.goto('/log');
    await page.getByRole('heading', { name: 'Usage log' }).waitFor();
    await watched.screenshot('logs-en');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });
});
