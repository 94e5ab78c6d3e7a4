import { createHash, createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { LogEntity } from '../src/modules/logs/entities/log.entity';
import { UserEntity } from '../src/modules/users/entities/user.entity';
import { registerUser, Session, setupRoot } from './support/accounts';
import { BrowserSession } from './support/browser-session';
import { MockHttp, startMockHttp } from './support/mock-http';
import { signInAtProvider, startOpenIdProvider, TestOpenIdProvider } from './support/oidc-op';
import { startSmtpInbox, SmtpInbox } from './support/smtp-inbox';
import { startTestApp, TestApp } from './support/test-app';

const SECRETS = {
  github: 'github-client-secret-value',
  linuxdo: 'linuxdo-client-secret-value',
  oidc: 'oidc-client-secret-value',
  wechat: 'wechat-server-token-value',
  telegram: '123456:telegram-bot-token-value',
  smtp: 'smtp-token-value',
};

/** GitHub's and LinuxDO's wire formats: code → token → user. A code `code-<name>` belongs to the user `<name>`. */
function oauthProviderMock(secretsByClient: Record<string, string>) {
  const users: Record<string, number> = { octocat: 583231, hubot: 7, monalisa: 9, linus: 101, ldo2: 102, ldo3: 103 };
  return startMockHttp((request) => {
    if (request.method === 'POST' && (request.path === '/login/oauth/access_token' || request.path === '/oauth2/token')) {
      const name = request.form.code?.replace(/^code-/, '');
      if (secretsByClient[request.form.client_id] !== request.form.client_secret || !name || !(name in users)) {
        return { json: { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' } };
      }
      return { json: { access_token: `token-${name}`, token_type: 'bearer', scope: 'user:email' } };
    }
    const name = String(request.headers.authorization ?? '').replace(/^(Bearer|token) token-/, '');
    if (!(name in users)) return { status: 401, json: { message: 'Bad credentials' } };
    if (request.path === '/user') return { json: { id: users[name], login: name, name: `The ${name}` } };
    if (request.path === '/user/emails') return { json: [{ email: `${name}@users.example.test`, primary: true, verified: true }] };
    if (request.path === '/api/user') return { json: { id: users[name], username: name, name: `LinuxDO ${name}`, active: true, trust_level: 1 } };
    return { status: 404, json: { message: 'Not Found' } };
  });
}

function signTelegram(fields: Record<string, string>, botToken = SECRETS.telegram): Record<string, string> {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(botToken).digest()).update(checkString).digest('hex');
  return { ...fields, hash };
}

describe('third-party sign-in and bindings', () => {
  let app: TestApp;
  let root: Session;
  let providerMock: MockHttp;
  let wechatServer: MockHttp;
  let op: TestOpenIdProvider;
  let inbox: SmtpInbox;
  let dataSource: DataSource;
  const answers: string[] = [];

  const setOptions = async (options: Record<string, string>) => {
    for (const [key, value] of Object.entries(options)) {
      const response = await root.put('/api/option/', { key, value });
      expect(response.body).toMatchObject({ success: true });
    }
  };
  const userById = (id: number) => dataSource.getRepository(UserEntity).findOne({ where: { id }, withDeleted: true });
  const remember = <T extends { body: unknown }>(response: T): T => {
    answers.push(JSON.stringify(response.body));
    return response;
  };
  /** A browser going through the provider's redirect: state, then the callback page's call. */
  const callback = async (browser: BrowserSession, provider: string, code: string, aff?: string) => {
    const state = (await browser.get(`/api/oauth/state${aff ? `?aff=${aff}` : ''}`)).body.data as string;
    return remember(await browser.get(`/api/oauth/${provider}?code=${code}&state=${state}`));
  };

  beforeAll(async () => {
    providerMock = await oauthProviderMock({ 'github-client': SECRETS.github, 'linuxdo-client': SECRETS.linuxdo });
    wechatServer = await startMockHttp((request) => {
      if (request.headers.authorization !== SECRETS.wechat) return { json: { success: false, message: 'token invalid' } };
      const code = request.query.get('code') ?? '';
      return /^\d{6}$/.test(code) ? { json: { success: true, message: '', data: `openid-${code}` } } : { json: { success: false, message: '验证码错误或已过期' } };
    });
    inbox = await startSmtpInbox({ user: 'mailer', pass: SECRETS.smtp });
    app = await startTestApp({ GITHUB_OAUTH_URL: providerMock.url, GITHUB_API_URL: providerMock.url, LINUXDO_URL: providerMock.url });
    op = await startOpenIdProvider({ clientId: 'gateway', clientSecret: SECRETS.oidc, redirectUris: [`${app.baseUrl}/oauth/oidc`] });
    root = await setupRoot(app);
    dataSource = app.app.get(DataSource);
    await setOptions({
      // The OpenID provider and the WeChat server listen on loopback, which the outbound guard refuses by default.
      'fetch_setting.allow_private_ip': 'true',
      ServerAddress: app.baseUrl,
      GitHubOAuthEnabled: 'true',
      GitHubClientId: 'github-client',
      GitHubClientSecret: SECRETS.github,
      LinuxDOOAuthEnabled: 'true',
      LinuxDOClientId: 'linuxdo-client',
      LinuxDOClientSecret: SECRETS.linuxdo,
      WeChatAuthEnabled: 'true',
      WeChatServerAddress: wechatServer.url,
      WeChatServerToken: SECRETS.wechat,
      TelegramOAuthEnabled: 'true',
      TelegramBotToken: SECRETS.telegram,
      TelegramBotName: 'gateway_bot',
      'oidc.enabled': 'true',
      'oidc.client_id': 'gateway',
      'oidc.client_secret': SECRETS.oidc,
      'oidc.well_known': `${op.issuer}/.well-known/openid-configuration`,
      SMTPServer: '127.0.0.1',
      SMTPPort: String(inbox.port),
      SMTPAccount: 'mailer',
      SMTPToken: SECRETS.smtp,
      SMTPFrom: 'noreply@example.test',
    });
  });
  afterAll(async () => {
    await app.stop();
    await Promise.all([providerMock.stop(), wechatServer.stop(), op.stop(), inbox.stop()]);
  });

  it('signs up with GitHub, credits the inviter through a logged reward, and signs in again', async () => {
    await setOptions({ QuotaForNewUser: '100', QuotaForInviter: '300', QuotaForInvitee: '50' });
    const inviter = await registerUser(app, 'inviter');
    const affCode = (await inviter.get('/api/user/aff')).body.data as string;

    const browser = new BrowserSession(app);
    const signedUp = await callback(browser, 'github', 'code-octocat', affCode);
    expect(signedUp.body).toMatchObject({ success: true, message: 'Signed in', data: { display_name: 'The octocat', github_id: '583231', email: 'octocat@users.example.test' } });
    expect(signedUp.body.data.username).toMatch(/^gh_[a-z0-9]{9}$/);
    expect((await browser.get('/api/user/self')).body.data).toMatchObject({ id: signedUp.body.data.id, quota: 150, inviter_id: inviter.id });

    expect(await userById(inviter.id)).toMatchObject({ aff_count: 1, aff_quota: 300, aff_history_quota: 300 });
    const inviterRows = await dataSource.getRepository(LogEntity).findBy({ user_id: inviter.id, type: 4 });
    expect(inviterRows.map((row) => row.content)).toContain(`邀请用户 ${signedUp.body.data.username} 注册，获得邀请额度 300`);

    const again = await callback(new BrowserSession(app), 'github', 'code-octocat');
    expect(again.body).toMatchObject({ success: true, data: { id: signedUp.body.data.id } });
    await setOptions({ QuotaForNewUser: '0', QuotaForInviter: '0', QuotaForInvitee: '0' });
  });

  it('refuses a state that was used, belongs to another browser, or is missing', async () => {
    const browser = new BrowserSession(app);
    const state = (await browser.get('/api/oauth/state')).body.data as string;
    expect(state).toMatch(/^[A-Za-z0-9]{24}$/);
    expect((await browser.get(`/api/oauth/github?code=code-octocat&state=${state}`)).body.success).toBe(true);
    const reused = await new BrowserSession(app).get(`/api/oauth/github?code=code-octocat&state=${state}`);
    expect(reused.body).toMatchObject({ success: false, message: 'The state is invalid or has expired; sign in again' });
    expect((await browser.get(`/api/oauth/github?code=code-octocat&state=${state}`)).body.success).toBe(false);

    const victim = new BrowserSession(app);
    const victimState = (await victim.get('/api/oauth/state')).body.data as string;
    const attacker = new BrowserSession(app);
    await attacker.get('/api/oauth/state');
    const foreign = await attacker.get(`/api/oauth/github?code=code-octocat&state=${victimState}`);
    expect(foreign.body).toMatchObject({ success: false, message: 'The state is invalid or has expired; sign in again' });
    expect((await new BrowserSession(app).get('/api/oauth/github?code=code-octocat')).body.success).toBe(false);
  });

  it('binds GitHub to the signed-in account and refuses an id bound elsewhere', async () => {
    await registerUser(app, 'binder', 'binder-pass');
    const browser = new BrowserSession(app);
    await browser.login('binder', 'binder-pass');
    const bound = await callback(browser, 'github', 'code-hubot');
    expect(bound.body).toEqual({ success: true, message: 'bind', data: null });
    expect(await userById(browser.userId!)).toMatchObject({ github_id: '7' });

    await registerUser(app, 'other', 'other-pass');
    const other = new BrowserSession(app);
    await other.login('other', 'other-pass');
    const taken = await callback(other, 'github', 'code-hubot');
    expect(taken.body).toMatchObject({ success: false, message: 'This account is already bound to another user' });
    expect(await userById(other.userId!)).toMatchObject({ github_id: '' });

    // The bound id now signs in to the binder's account.
    expect((await callback(new BrowserSession(app), 'github', 'code-hubot')).body.data).toMatchObject({ id: browser.userId, username: 'binder' });
  });

  it('turns away a disabled or deleted user, and refuses sign-ups when registration is closed', async () => {
    const monalisa = await callback(new BrowserSession(app), 'github', 'code-monalisa');
    expect((await root.post('/api/user/manage', { id: monalisa.body.data.id, action: 'disable' })).body.success).toBe(true);
    expect((await callback(new BrowserSession(app), 'github', 'code-monalisa')).body).toMatchObject({ success: false, message: 'This user has been banned' });
    expect((await root.post('/api/user/manage', { id: monalisa.body.data.id, action: 'delete' })).body.success).toBe(true);
    // A deleted account keeps its binding, so the same GitHub id cannot quietly make a new one.
    expect((await callback(new BrowserSession(app), 'github', 'code-monalisa')).body).toMatchObject({ success: false, message: 'This account has been deleted' });

    await setOptions({ RegisterEnabled: 'false' });
    const closed = await callback(new BrowserSession(app), 'linuxdo', 'code-ldo3');
    expect(closed.body).toMatchObject({ success: false, message: 'The administrator has closed registration' });
    await setOptions({ RegisterEnabled: 'true' });

    await setOptions({ GitHubOAuthEnabled: 'false' });
    expect((await callback(new BrowserSession(app), 'github', 'code-octocat')).body).toMatchObject({ success: false, message: 'The administrator has not enabled sign-in with GitHub' });
    await setOptions({ GitHubOAuthEnabled: 'true' });
    expect((await callback(new BrowserSession(app), 'github', 'code-nobody')).body).toMatchObject({ success: false, message: 'GitHub authorisation failed, please retry' });
  });

  it('signs up, signs in and binds with LinuxDO', async () => {
    const first = await callback(new BrowserSession(app), 'linuxdo', 'code-linus');
    expect(first.body).toMatchObject({ success: true, data: { linux_do_id: '101', display_name: 'LinuxDO linus' } });
    expect(first.body.data.username).toMatch(/^ldo_/);
    expect((await callback(new BrowserSession(app), 'linuxdo', 'code-linus')).body.data.id).toBe(first.body.data.id);

    const browser = new BrowserSession(app);
    await browser.login('binder', 'binder-pass');
    expect((await callback(browser, 'linuxdo', 'code-ldo2')).body).toMatchObject({ success: true, message: 'bind' });
    expect(await userById(browser.userId!)).toMatchObject({ linux_do_id: '102' });
    expect((await callback(browser, 'linuxdo', 'code-linus')).body).toMatchObject({ success: false, message: 'This account is already bound to another user' });
  });

  it('signs up, signs in and binds with OpenID Connect: discovery, PKCE and a checked id_token', async () => {
    const oidcSignIn = async (browser: BrowserSession, account: string) => {
      const state = (await browser.get('/api/oauth/state')).body.data as string;
      const redirect = await browser.get(`/api/oauth/oidc/authorize?state=${state}`);
      expect(redirect.status).toBe(302);
      const authorizationUrl = new URL(redirect.headers.location as string);
      expect(authorizationUrl.origin).toBe(op.issuer);
      expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${app.baseUrl}/oauth/oidc`);
      const back = await signInAtProvider(authorizationUrl.href, account, `${app.baseUrl}/oauth/oidc`);
      expect(back.searchParams.get('state')).toBe(state);
      return remember(await browser.get(`/api/oauth/oidc${back.search}`));
    };

    const signedUp = await oidcSignIn(new BrowserSession(app), 'ada');
    expect(signedUp.body).toMatchObject({ success: true, data: { oidc_id: 'ada', display_name: 'OP ada', email: 'ada@op.example.test' } });
    expect((await oidcSignIn(new BrowserSession(app), 'ada')).body.data.id).toBe(signedUp.body.data.id);

    const browser = new BrowserSession(app);
    await browser.login('other', 'other-pass');
    expect((await oidcSignIn(browser, 'grace')).body).toMatchObject({ success: true, message: 'bind' });
    expect(await userById(browser.userId!)).toMatchObject({ oidc_id: 'grace' });
    expect((await oidcSignIn(browser, 'ada')).body).toMatchObject({ success: false, message: 'This account is already bound to another user' });

    // Without discovery: the three endpoints set by hand (no key set, so userinfo names the user).
    const discovery = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    await setOptions({
      'oidc.well_known': '',
      'oidc.authorization_endpoint': discovery.authorization_endpoint,
      'oidc.token_endpoint': discovery.token_endpoint,
      'oidc.user_info_endpoint': discovery.userinfo_endpoint,
    });
    expect((await oidcSignIn(new BrowserSession(app), 'ada')).body).toMatchObject({ success: true, data: { id: signedUp.body.data.id } });
    await setOptions({ 'oidc.well_known': `${op.issuer}/.well-known/openid-configuration` });

    // A code is worth one exchange: replaying the callback with a fresh state fails at the provider.
    const replayBrowser = new BrowserSession(app);
    const state = (await replayBrowser.get('/api/oauth/state')).body.data as string;
    const authorizationUrl = (await replayBrowser.get(`/api/oauth/oidc/authorize?state=${state}`)).headers.location as string;
    const back = await signInAtProvider(authorizationUrl, 'ada', `${app.baseUrl}/oauth/oidc`);
    const otherState = (await replayBrowser.get('/api/oauth/state')).body.data as string;
    // The PKCE verifier and nonce belong to the first state, so the code cannot be redeemed under another.
    back.searchParams.set('state', otherState);
    expect((await replayBrowser.get(`/api/oauth/oidc${back.search}`)).body).toMatchObject({ success: false, message: 'OIDC authorisation failed, please retry' });
  });

  it('signs up, signs in and binds with a WeChat code', async () => {
    const login = remember(await new BrowserSession(app).get('/api/oauth/wechat?code=123456'));
    expect(login.body).toMatchObject({ success: true, data: { wechat_id: 'openid-123456' } });
    expect(login.body.data.username).toMatch(/^wx_/);
    expect((await new BrowserSession(app).get('/api/oauth/wechat?code=123456')).body.data.id).toBe(login.body.data.id);
    expect((await new BrowserSession(app).get('/api/oauth/wechat?code=bad')).body).toMatchObject({ success: false, message: 'The WeChat code is wrong or has expired' });

    const browser = new BrowserSession(app);
    await browser.login('binder', 'binder-pass');
    expect((await browser.get('/api/oauth/wechat/bind?code=654321')).body).toMatchObject({ success: true, message: 'bind' });
    expect(await userById(browser.userId!)).toMatchObject({ wechat_id: 'openid-654321' });
    expect((await browser.get('/api/oauth/wechat/bind?code=123456')).body).toMatchObject({ success: false, message: 'This account is already bound to another user' });
    expect((await new BrowserSession(app).get('/api/oauth/wechat/bind?code=111111')).status).toBe(401);
    expect(wechatServer.requests.every((request) => request.headers.authorization === SECRETS.wechat)).toBe(true);
  });

  it('signs up, signs in and binds with the Telegram widget, checking its hash and age', async () => {
    const now = String(Math.floor(Date.now() / 1000));
    const fields = signTelegram({ id: '4242', first_name: 'Tele', username: 'tele', auth_date: now });
    const query = (values: Record<string, string>) => new URLSearchParams({ ...values, lang: 'en' }).toString();
    const login = remember(await new BrowserSession(app).get(`/api/oauth/telegram/login?${query(fields)}`));
    expect(login.body).toMatchObject({ success: true, data: { telegram_id: '4242', display_name: 'Tele' } });

    const forged = { ...fields, id: '4243' };
    expect((await new BrowserSession(app).get(`/api/oauth/telegram/login?${query(forged)}`)).body).toMatchObject({ success: false, message: 'The Telegram login data failed verification' });
    const wrongBot = signTelegram({ id: '4244', auth_date: now }, '999:other-bot');
    expect((await new BrowserSession(app).get(`/api/oauth/telegram/login?${query(wrongBot)}`)).body.success).toBe(false);
    const old = signTelegram({ id: '4245', auth_date: String(Number(now) - 2 * 3600) });
    expect((await new BrowserSession(app).get(`/api/oauth/telegram/login?${query(old)}`)).body).toMatchObject({ success: false, message: 'The Telegram login data has expired, please retry' });

    const browser = new BrowserSession(app);
    await browser.login('other', 'other-pass');
    const bind = signTelegram({ id: '5151', first_name: 'Other', auth_date: now });
    expect((await browser.get(`/api/oauth/telegram/bind?${query(bind)}`)).body).toMatchObject({ success: true, message: 'bind' });
    expect(await userById(browser.userId!)).toMatchObject({ telegram_id: '5151' });
    expect((await browser.get(`/api/oauth/telegram/bind?${query(fields)}`)).body).toMatchObject({ success: false, message: 'This account is already bound to another user' });
  });

  it('binds an email address with a mailed code', async () => {
    const browser = new BrowserSession(app);
    await browser.login('binder', 'binder-pass');
    expect((await browser.get('/api/verification?email=binder@example.test')).body.success).toBe(true);
    const code = /(\d{6})/.exec((await inbox.next('binder@example.test')).text)![1];
    expect((await browser.get(`/api/oauth/email/bind?email=binder@example.test&code=${code === '000000' ? '111111' : '000000'}`)).body).toMatchObject({ success: false, message: 'The verification code is wrong or has expired' });
    expect((await browser.get(`/api/oauth/email/bind?email=binder@example.test&code=${code}`)).body).toMatchObject({ success: true, message: 'Email address bound' });
    expect(await userById(browser.userId!)).toMatchObject({ email: 'binder@example.test' });
    expect((await browser.get('/api/oauth/email/bind?email=binder@example.test')).body).toMatchObject({ success: false, message: 'Please enter the email verification code!' });
  });

  it('sends OIDC discovery, the OIDC token call and the WeChat server through the outbound guard', async () => {
    const wellKnown = `${op.issuer}/.well-known/openid-configuration`;
    const refusedPrivate = { success: false, message: expect.stringContaining('fetch_setting.allow_private_ip') };
    // A state and an authorization made while loopback is allowed, to redeem after it is not.
    const browser = new BrowserSession(app);
    const state = (await browser.get('/api/oauth/state')).body.data as string;
    const authorizationUrl = (await browser.get(`/api/oauth/oidc/authorize?state=${state}`)).headers.location as string;
    const back = await signInAtProvider(authorizationUrl, 'ada', `${app.baseUrl}/oauth/oidc`);
    const wechatCalls = wechatServer.requests.length;
    await setOptions({ 'fetch_setting.allow_private_ip': 'false', 'oidc.well_known': '' });
    await setOptions({ 'oidc.well_known': wellKnown });
    try {
      expect(remember(await new BrowserSession(app).get('/api/oauth/wechat?code=123456')).body).toMatchObject(refusedPrivate);
      expect(wechatServer.requests).toHaveLength(wechatCalls);
      // Discovery of a loopback provider is refused before any request leaves.
      const discoveryState = (await new BrowserSession(app).get('/api/oauth/state')).body.data as string;
      expect(remember(await new BrowserSession(app).get(`/api/oauth/oidc/authorize?state=${discoveryState}`)).body).toMatchObject(refusedPrivate);
      // The token call of a provider discovered earlier is judged on its own.
      await setOptions({ 'fetch_setting.allow_private_ip': 'true' });
      expect((await new BrowserSession(app).get(`/api/oauth/oidc/authorize?state=${discoveryState}`)).status).toBe(302);
      await setOptions({ 'fetch_setting.allow_private_ip': 'false' });
      expect(remember(await browser.get(`/api/oauth/oidc${back.search}`)).body).toMatchObject(refusedPrivate);
    } finally {
      await setOptions({ 'fetch_setting.allow_private_ip': 'true' });
    }
    expect((await new BrowserSession(app).get('/api/oauth/wechat?code=123456')).body).toMatchObject({ success: true, data: { wechat_id: 'openid-123456' } });
  });

  it('never shows a client secret, bot token or server token in an answer', async () => {
    answers.push(JSON.stringify((await app.http.get('/api/status')).body), JSON.stringify((await root.get('/api/option/')).body));
    const everything = answers.join('\n');
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
  });
});
