import type { Browser } from 'playwright-core';
import { startMockHttp, type MockHttp } from '../support/mock-http';
import { startOpenIdProvider, type TestOpenIdProvider } from '../support/oidc-op';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox';
import { closeSession, launchBrowser, loginThroughUi, ROOT_USER, rootOptionsApi, setupThroughApi, startServer, WatchedPage, type TestServer } from './harness';

const USER = { username: 'dora', password: 'dora-pass-1' };
const SMTP = { user: 'mailer', pass: 'smtp-token-e2e' };

describe('third-party sign-in and the bindings card', () => {
  let server: TestServer;
  let op: TestOpenIdProvider;
  let inbox: SmtpInbox;
  let wechatServer: MockHttp;
  let browser: Browser;
  let watched: WatchedPage;
  let setOptions: (options: Record<string, string>) => Promise<void>;

  beforeAll(async () => {
    server = await startServer();
    op = await startOpenIdProvider({ clientId: 'console', clientSecret: 'oidc-secret-e2e', redirectUris: [`${server.baseUrl}/oauth/oidc`] });
    inbox = await startSmtpInbox(SMTP);
    // The WeChat server's wire format: the code the official account sent → the user's openid.
    wechatServer = await startMockHttp((request) => {
      if (request.path === '/qr.png') return { status: 200, text: 'not really a QR code' };
      const code = request.query.get('code') ?? '';
      const valid = request.headers.authorization === 'wechat-token-e2e' && code === '246810';
      return { json: valid ? { success: true, message: '', data: 'openid-dora' } : { success: false, message: '验证码错误或已过期' } };
    });
    await setupThroughApi(server.baseUrl);
    setOptions = await rootOptionsApi(server.baseUrl);
    await setOptions({
      // The OpenID provider and the WeChat server of this test listen on loopback, which the outbound guard refuses by default.
      'fetch_setting.allow_private_ip': 'true',
      ServerAddress: server.baseUrl,
      'oidc.enabled': 'true',
      'oidc.client_id': 'console',
      'oidc.client_secret': 'oidc-secret-e2e',
      'oidc.well_known': `${op.issuer}/.well-known/openid-configuration`,
      SMTPServer: '127.0.0.1',
      SMTPPort: String(inbox.port),
      SMTPAccount: SMTP.user,
      SMTPToken: SMTP.pass,
      SMTPFrom: 'noreply@example.test',
      WeChatAuthEnabled: 'true',
      WeChatServerAddress: wechatServer.url,
      WeChatServerToken: 'wechat-token-e2e',
      WeChatAccountQRCodeImageURL: `${wechatServer.url}/qr.png`,
    });
    const registered = await fetch(`${server.baseUrl}/api/user/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...USER, password2: USER.password }),
    });
    expect(((await registered.json()) as { success: boolean }).success).toBe(true);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
    await op?.stop();
    await inbox?.stop();
    await wechatServer?.stop();
  });

  test('signs up with OIDC through the login page, the provider and the callback page', async () => {
    watched = await WatchedPage.open(browser, server.baseUrl);
    const { page } = watched;
    await watched.goto('/login');
    await page.getByRole('button', { name: /OIDC/ }).click();
    await page.waitForURL(`${op.issuer}/interaction/**`);
    await page.locator('#op-login').fill('ada');
    await page.locator('#op-submit').click();
    await page.waitForURL('**/token');
    await page.waitForLoadState('networkidle');

    await watched.goto('/personal');
    await page.getByTestId('binding-oidc-value').filter({ hasText: 'ada' }).waitFor();
    expect(await page.getByTestId('binding-github-value').textContent()).toBe('未绑定');
    await watched.screenshot('personal-bindings');
    await watched.close();
  });

  test('binds OIDC, an email address and WeChat (QR code and code) from the bindings card', async () => {
    watched = await WatchedPage.open(browser, server.baseUrl);
    const { page } = watched;
    await loginThroughUi(watched, USER.username, USER.password);
    await watched.goto('/personal');
    await page.getByTestId('bind-oidc').click();
    await page.waitForURL(`${op.issuer}/interaction/**`);
    await page.locator('#op-login').fill('grace');
    await page.locator('#op-submit').click();
    await page.waitForURL('**/personal');
    await page.getByTestId('toast-success').filter({ hasText: '绑定成功' }).waitFor();
    await page.getByTestId('binding-oidc-value').filter({ hasText: 'grace' }).waitFor();

    await page.getByTestId('bind-email').click();
    const dialog = page.getByTestId('email-bind-dialog');
    await dialog.getByRole('textbox', { name: '邮箱' }).fill('dora@example.test');
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    const code = /(\d{6})/.exec((await inbox.next('dora@example.test')).text)![1];
    await dialog.getByRole('button', { name: /重新发送/ }).waitFor();
    await dialog.getByRole('textbox', { name: '验证码' }).fill(code);
    await watched.screenshot('personal-email-bind');
    await dialog.getByRole('button', { name: '绑定' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('binding-email-value').filter({ hasText: 'dora@example.test' }).waitFor();

    await page.getByTestId('bind-wechat').click();
    const wechat = page.getByTestId('wechat-bind-dialog');
    await wechat.locator('img').waitFor();
    await wechat.getByRole('textbox').fill('246810');
    await wechat.getByRole('button', { name: '绑定' }).click();
    await wechat.waitFor({ state: 'hidden' });
    await page.getByTestId('binding-wechat-value').filter({ hasText: '已绑定' }).waitFor();
    await watched.close();
  });

  test('resets the password through the reset pages and the mailed link', async () => {
    watched = await WatchedPage.open(browser, server.baseUrl);
    const { page } = watched;
    await watched.goto('/reset');
    await page.locator('input[name="email"]').fill('dora@example.test');
    await page.getByRole('button', { name: '提交' }).click();
    await page.getByTestId('toast-success').waitFor();
    const link = /http:\/\/\S+\/user\/reset\?\S+/.exec((await inbox.next('dora@example.test')).text)![0];
    await watched.goto(new URL(link).pathname + new URL(link).search);
    await page.getByRole('button', { name: '确认重置密码' }).click();
    const newPassword = page.getByRole('textbox', { name: '新密码' });
    await newPassword.waitFor();
    const password = await newPassword.inputValue();
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await loginThroughUi(watched, USER.username, password);
    await watched.close();
  });

  test('a failed callback shows the server message and the prompt, then moves to /setting (zh and en)', async () => {
    const prompts = { zh: '操作失败，重定向至登录界面中...', en: 'Operation failed, redirecting to login page...' };
    const messages = { zh: 'state 无效或已过期，请重新登录', en: 'The state is invalid or has expired; sign in again' };
    for (const language of ['zh', 'en'] as const) {
      watched = await WatchedPage.open(browser, server.baseUrl, 1280, language);
      const { page } = watched;
      await loginThroughUi(watched, ROOT_USER.username, ROOT_USER.password);
      // A bind whose state was never issued to this browser (a forged or replayed callback).
      await page.goto('/oauth/oidc?code=stolen-code&state=forged-state');
      await page.getByTestId('toast-error').filter({ hasText: messages[language] }).waitFor();
      await page.getByTestId('oauth-prompt').filter({ hasText: prompts[language] }).waitFor();
      if (language === 'zh') await watched.screenshot('oauth-callback-failed');
      await page.waitForURL((url) => url.pathname === '/setting');
      await watched.close();
    }
  });

  test('hides the password form when password sign-in is off, keeping the providers', async () => {
    await setOptions({ PasswordLoginEnabled: 'false' });
    watched = await WatchedPage.open(browser, server.baseUrl);
    const { page } = watched;
    await watched.goto('/login');
    await page.getByRole('button', { name: /OIDC/ }).waitFor();
    expect(await page.locator('input[name="password"]').count()).toBe(0);
    await setOptions({ PasswordLoginEnabled: 'true' });
  });
});
