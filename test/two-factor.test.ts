import { createHash, createHmac } from 'node:crypto';
import { generate } from 'otplib';
import { DataSource } from 'typeorm';
import { TotpClock } from '../src/modules/two-factor/totp-clock';
import { registerUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot, type Session } from './support/accounts';
import { BrowserSession } from './support/browser-session';
import { startSmtpInbox, type SmtpInbox } from './support/smtp-inbox';
import { startTestApp, TestApp, testSql } from './support/test-app';

const TELEGRAM_BOT_TOKEN = '777:two-factor-test-bot';
const SMTP_TOKEN = 'smtp-two-factor-secret';
/** A fixed instant, so each code the test computes belongs to a known 30-second step. */
const T0 = 1_900_000_020;

function signTelegram(fields: Record<string, string>): string {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(TELEGRAM_BOT_TOKEN).digest()).update(checkString).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

describe('TOTP two-factor sign-in', () => {
  let app: TestApp;
  let root: Session;
  let inbox: SmtpInbox;
  let dataSource: DataSource;
  let now = T0;
  /** Every answer the server gave after enrolment, searched for the secret and the recovery codes at the end. */
  const answers: string[] = [];
  const remember = <T extends { body: unknown; headers: Record<string, unknown> }>(response: T): T => {
    answers.push(JSON.stringify(response.body), JSON.stringify(response.headers));
    return response;
  };
  const code = (secret: string, at = now) => generate({ secret, epoch: at });

  /** Enrols a signed-in account through the API and returns its secret and recovery codes. */
  async function enrol(session: { post(path: string, body?: object): PromiseLike<{ body: { success: boolean; data: Record<string, unknown>; message: string } }> }) {
    const setup = await session.post('/api/user/2fa/setup');
    expect(setup.body.success).toBe(true);
    const secret = setup.body.data.secret as string;
    const enabled = await session.post('/api/user/2fa/enable', { code: await code(secret) });
    expect(enabled.body).toMatchObject({ success: true });
    return { secret, recoveryCodes: enabled.body.data.recovery_codes as string[] };
  }

  beforeAll(async () => {
    inbox = await startSmtpInbox({ user: 'mailer', pass: SMTP_TOKEN });
    app = await startTestApp();
    jest.spyOn(app.app.get(TotpClock), 'nowSeconds').mockImplementation(() => now);
    root = await setupRoot(app);
    dataSource = app.app.get(DataSource);
    for (const [key, value] of Object.entries({
      SMTPServer: '127.0.0.1',
      SMTPPort: String(inbox.port),
      SMTPAccount: 'mailer',
      SMTPToken: SMTP_TOKEN,
      SMTPFrom: 'noreply@example.test',
      TelegramOAuthEnabled: 'true',
      TelegramBotToken: TELEGRAM_BOT_TOKEN,
      TelegramBotName: 'gateway_bot',
    })) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
  });
  afterAll(async () => {
    await app.stop();
    await inbox.stop();
  });

  let aliceSecret = '';
  let rootSecret = '';
  let aliceRecoveryCodes: string[] = [];

  it('enrols with a QR URI and a first code, keeps the secret encrypted and the recovery codes hashed', async () => {
    const alice = await registerUser(app, 'alice2fa');
    expect((await alice.get('/api/user/2fa/status')).body.data).toEqual({ enabled: false, recovery_codes_left: 0, required: false });

    // Session calls carry no Accept-Language: the answers are in Chinese, the default.
    expect((await alice.post('/api/user/2fa/enable', { code: '123456' })).body).toMatchObject({ success: false, message: '请先生成二维码' });
    const setup = await alice.post('/api/user/2fa/setup');
    aliceSecret = setup.body.data.secret;
    expect(setup.body.data.otpauth_uri).toBe(`otpauth://totp/AI%20Gateway:alice2fa?secret=${aliceSecret}&issuer=AI%20Gateway`);

    const wrong = String((Number(await code(aliceSecret)) + 1) % 1_000_000).padStart(6, '0');
    expect((await alice.post('/api/user/2fa/enable', { code: wrong })).body).toMatchObject({ success: false, message: '验证码错误或已使用' });
    const enabled = remember(await alice.post('/api/user/2fa/enable', { code: await code(aliceSecret) }));
    aliceRecoveryCodes = enabled.body.data.recovery_codes;
    expect(aliceRecoveryCodes).toHaveLength(10);
    expect(new Set(aliceRecoveryCodes).size).toBe(10);
    for (const recovery of aliceRecoveryCodes) expect(recovery).toMatch(/^[0-9a-f]{5}-[0-9a-f]{5}$/);

    expect(remember(await alice.get('/api/user/2fa/status')).body.data).toEqual({ enabled: true, recovery_codes_left: 10, required: false });
    expect(remember(await alice.post('/api/user/2fa/setup')).body).toMatchObject({ success: false, message: '两步验证已启用' });

    const [stored] = await dataSource.query(testSql('SELECT secret FROM user_two_factor WHERE user_id = ?'), [alice.id]);
    expect(stored.secret.startsWith('enc:v1:')).toBe(true);
    expect(stored.secret).not.toContain(aliceSecret);
    const hashes = await dataSource.query(testSql('SELECT code_hash FROM two_factor_recovery_codes WHERE user_id = ?'), [alice.id]);
    expect(hashes).toHaveLength(10);
    const storedCodes = JSON.stringify(hashes);
    for (const recovery of aliceRecoveryCodes) expect(storedCodes).not.toContain(recovery.replace('-', ''));
  });

  it('asks for the code after the password, and refuses a code already used in its window', async () => {
    const browser = new BrowserSession(app);
    const first = remember(await browser.post('/api/user/login', { username: 'alice2fa', password: 'user-pass-1' }));
    expect(first.body).toMatchObject({ success: true, data: { require_2fa: true } });
    expect(JSON.stringify(first.headers['set-cookie'])).not.toContain('session=');
    // Without the first step's challenge there is nothing to answer.
    expect((await new BrowserSession(app).post('/api/user/login/2fa', { code: await code(aliceSecret) })).body).toMatchObject({ success: false, message: 'The sign-in timed out; enter your username and password again' });
    // The enrolment used this step's code.
    expect(remember(await browser.post('/api/user/login/2fa', { code: await code(aliceSecret) })).body).toMatchObject({ success: false, message: 'The code is wrong or has already been used' });

    now += 30;
    const second = remember(await browser.post('/api/user/login/2fa', { code: await code(aliceSecret) }));
    expect(second.body).toMatchObject({ success: true, data: { username: 'alice2fa', require_2fa_setup: false } });
    browser.userId = second.body.data.id;
    expect((await browser.get('/api/user/self')).body.data.username).toBe('alice2fa');

    // The same code again, through a fresh password step, is a replay.
    const again = new BrowserSession(app);
    await again.post('/api/user/login', { username: 'alice2fa', password: 'user-pass-1' });
    expect(remember(await again.post('/api/user/login/2fa', { code: await code(aliceSecret) })).body).toMatchObject({ success: false });
    now += 30;
    expect(remember(await again.post('/api/user/login/2fa', { code: await code(aliceSecret) })).body.success).toBe(true);
  });

  // Alice stays below five wrong codes in all (the limit per account and address); bob runs into it.
  it('takes each recovery code once', async () => {
    const signInWith = async (secondFactor: string) => {
      const browser = new BrowserSession(app);
      expect((await browser.post('/api/user/login', { username: 'alice2fa', password: 'user-pass-1' })).body.data.require_2fa).toBe(true);
      return remember(await browser.post('/api/user/login/2fa', { code: secondFactor }));
    };
    expect((await signInWith(aliceRecoveryCodes[0])).body).toMatchObject({ success: true, data: { username: 'alice2fa' } });
    expect((await signInWith(aliceRecoveryCodes[0])).body).toMatchObject({ success: false, message: 'The code is wrong or has already been used' });
    // Typed without the dash and in capitals, as people retype them.
    expect((await signInWith(aliceRecoveryCodes[1].replace('-', '').toUpperCase())).body.success).toBe(true);
    const alice = new BrowserSession(app);
    await alice.post('/api/user/login', { username: 'alice2fa', password: 'user-pass-1' });
    const signedIn = await alice.post('/api/user/login/2fa', { code: aliceRecoveryCodes[2] });
    alice.userId = signedIn.body.data.id;
    expect(remember(await alice.get('/api/user/2fa/status')).body.data.recovery_codes_left).toBe(7);
  });

  it('asks for the code after a third-party sign-in too', async () => {
    const telegramLogin = () => `/api/oauth/telegram/login?${signTelegram({ id: '9090', first_name: 'Tele', username: 'tele2fa', auth_date: String(Math.floor(Date.now() / 1000)) })}`;
    const browser = new BrowserSession(app);
    const signedUp = await browser.get(telegramLogin());
    expect(signedUp.body).toMatchObject({ success: true, data: { telegram_id: '9090' } });
    const { secret } = await enrol({ post: (path: string, body: object = {}) => browser.post(path, body) });

    const next = new BrowserSession(app);
    expect(remember(await next.get(telegramLogin())).body).toMatchObject({ success: true, data: { require_2fa: true } });
    now += 30;
    expect(remember(await next.post('/api/user/login/2fa', { code: await code(secret) })).body).toMatchObject({ success: true, data: { telegram_id: '9090' } });
  });

  it('limits code attempts per account and address', async () => {
    const bob = await registerUser(app, 'bob2fa');
    const { secret } = await enrol(bob);
    const browser = new BrowserSession(app);
    await browser.post('/api/user/login', { username: 'bob2fa', password: 'user-pass-1' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) statuses.push((await browser.post('/api/user/login/2fa', { code: '000000' })).status);
    // Five wrong codes per account and address in five minutes.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    now += 30;
    // Even the right code waits for the window to pass.
    expect((await browser.post('/api/user/login/2fa', { code: await code(secret) })).status).toBe(429);
  });

  it('sends an account the setting covers to enrolment and lets it do nothing else until then', async () => {
    expect((await root.put('/api/option/', { key: 'TwoFactorRequirement', value: 'admins' })).body.success).toBe(true);
    const rootBrowser = new BrowserSession(app);
    const signedIn = await rootBrowser.post('/api/user/login', { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    expect(signedIn.body).toMatchObject({ success: true, data: { require_2fa_setup: true } });
    rootBrowser.userId = signedIn.body.data.id;
    const refused = await rootBrowser.get('/api/channel/');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, message: 'Set up two-factor sign-in first' });
    // The session from before the setting is held to it as well.
    expect((await root.get('/api/channel/')).status).toBe(403);
    expect((await rootBrowser.get('/api/user/self')).body.success).toBe(true);
    expect((await rootBrowser.get('/api/user/2fa/status')).body.data).toEqual({ enabled: false, recovery_codes_left: 0, required: true });
    // "admins" does not cover an ordinary user.
    const carol = await registerUser(app, 'carol2fa');
    expect((await carol.get('/api/token/')).body.success).toBe(true);

    now += 30;
    rootSecret = (await enrol({ post: (path: string, body: object = {}) => rootBrowser.post(path, body) })).secret;
    expect((await rootBrowser.get('/api/channel/')).body.success).toBe(true);
    expect((await root.get('/api/channel/')).body.success).toBe(true);
    now += 30;
    expect((await rootBrowser.post('/api/user/2fa/disable', { code: await code(rootSecret) })).body).toMatchObject({
      success: false,
      message: 'The administrator requires two-factor sign-in for your account; it cannot be turned off',
    });

    expect((await root.put('/api/option/', { key: 'TwoFactorRequirement', value: 'everyone' })).body.success).toBe(true);
    expect((await carol.get('/api/token/')).status).toBe(403);
    const carolAgain = await new BrowserSession(app).post('/api/user/login', { username: 'carol2fa', password: 'user-pass-1' });
    expect(carolAgain.body.data.require_2fa_setup).toBe(true);
    expect((await root.put('/api/option/', { key: 'TwoFactorRequirement', value: 'off' })).body.success).toBe(true);
    expect((await carol.get('/api/token/')).body.success).toBe(true);
  });

  it("lets root reset a user's second factor: recorded, the user signed out and mailed", async () => {
    const alice = new BrowserSession(app);
    await alice.post('/api/user/login', { username: 'alice2fa', password: 'user-pass-1' });
    now += 30;
    const signedIn = await alice.post('/api/user/login/2fa', { code: await code(aliceSecret) });
    alice.userId = signedIn.body.data.id;
    await dataSource.query(testSql('UPDATE users SET email = ? WHERE id = ?'), ['alice2fa@example.test', alice.userId]);

    const rootBrowser = new BrowserSession(app);
    await rootBrowser.post('/api/user/login', { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    now += 30;
    const rootSignIn = await rootBrowser.post('/api/user/login/2fa', { code: await code(rootSecret) });
    rootBrowser.userId = rootSignIn.body.data.id;

    const carolBrowser = new BrowserSession(app);
    await carolBrowser.login('carol2fa', 'user-pass-1');
    expect((await carolBrowser.post('/api/user/2fa/reset', { user_id: alice.userId })).status).toBe(403);

    const mail = inbox.next('alice2fa@example.test');
    expect((await rootBrowser.post('/api/user/2fa/reset', { user_id: alice.userId })).body).toMatchObject({ success: true, message: "The user's two-factor sign-in was reset" });
    expect((await mail).subject).toContain('two-factor sign-in reset');
    expect((await alice.get('/api/user/self')).status).toBe(401);
    const audit = await rootBrowser.get(`/api/audit/?entity=user&entity_id=${alice.userId}`);
    expect(audit.body.data.items[0]).toMatchObject({ actor_username: ROOT_USERNAME, action: 'reset_2fa', entity_id: String(alice.userId) });

    const plain = await new BrowserSession(app).post('/api/user/login', { username: 'alice2fa', password: 'user-pass-1' });
    expect(plain.body).toMatchObject({ success: true, data: { username: 'alice2fa', require_2fa_setup: false } });
    expect(Number((await dataSource.query(testSql('SELECT COUNT(*) AS n FROM two_factor_recovery_codes WHERE user_id = ?'), [alice.userId]))[0].n)).toBe(0);
  });

  it('never shows a secret after enrolment', () => {
    const everything = answers.join('\n');
    expect(everything).not.toContain(aliceSecret);
    for (const recovery of aliceRecoveryCodes) expect(everything.split(recovery).length).toBeLessThanOrEqual(2);
  });

});
