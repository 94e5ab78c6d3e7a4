import { DataSource } from 'typeorm';
import { OneTimeCodeEntity } from '../src/modules/verification/entities/one-time-code.entity';
import { LogEntity } from '../src/modules/logs/entities/log.entity';
import { login, registerUser, Session, setupRoot } from './support/accounts';
import { MockHttp, startMockHttp } from './support/mock-http';
import { startSmtpInbox, SmtpInbox } from './support/smtp-inbox';
import { startTestApp, TestApp, testSql } from './support/test-app';

const SMTP = { user: 'mailer@example.test', pass: 'smtp-secret-token' };
const TURNSTILE_SECRET = 'turnstile-secret-key';
const GOOD_TURNSTILE = 'human-token';

describe('email verification, password reset and Turnstile', () => {
  let app: TestApp;
  let root: Session;
  let inbox: SmtpInbox;
  let siteverify: MockHttp;
  let dataSource: DataSource;

  const setOption = async (key: string, value: string) => {
    const response = await root.put('/api/option/', { key, value });
    expect(response.body).toMatchObject({ success: true });
  };
  const en = (path: string) => app.http.get(path).set('Accept-Language', 'en');
  const codeIn = (text: string) => /(\d{6})/.exec(text)?.[1] ?? '';
  const sendCode = (email: string) => en(`/api/verification?email=${encodeURIComponent(email)}`);

  beforeAll(async () => {
    inbox = await startSmtpInbox(SMTP);
    siteverify = await startMockHttp((request) => ({ json: { success: request.form.secret === TURNSTILE_SECRET && request.form.response === GOOD_TURNSTILE } }));
    app = await startTestApp({ TURNSTILE_SITEVERIFY_URL: `${siteverify.url}/turnstile/v0/siteverify` });
    root = await setupRoot(app);
    dataSource = app.app.get(DataSource);
    for (const [key, value] of Object.entries({
      SMTPServer: '127.0.0.1',
      SMTPPort: String(inbox.port),
      SMTPAccount: SMTP.user,
      SMTPToken: SMTP.pass,
      SMTPFrom: 'noreply@example.test',
      ServerAddress: 'https://gateway.example.test',
      SystemName: 'Test <Gateway>',
    })) {
      await setOption(key, value);
    }
  });
  afterAll(async () => {
    await app.stop();
    await inbox.stop();
    await siteverify.stop();
  });

  it('registers with a mailed code when email verification is on', async () => {
    await setOption('EmailVerificationEnabled', 'true');
    await setOption('QuotaForNewUser', '500');
    const noCode = await app.http.post('/api/user/register').set('Accept-Language', 'en').send({ username: 'nocode', password: 'abcdefgh' });
    expect(noCode.body).toMatchObject({ success: false, message: 'Email verification is on: enter your email address and verification code' });

    const sent = await sendCode('Alice@Example.test');
    expect(sent.body).toEqual({ success: true, message: 'Verification code sent, check your mailbox', data: null });
    const mail = await inbox.next('alice@example.test');
    const code = codeIn(mail.text);
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain('Test &lt;Gateway&gt;');

    const wrong = await app.http.post('/api/user/register').set('Accept-Language', 'en').send({ username: 'alice', password: 'abcdefgh', email: 'alice@example.test', verification_code: '000000' === code ? '111111' : '000000' });
    expect(wrong.body).toMatchObject({ success: false, message: 'The verification code is wrong or has expired' });

    const registered = await app.http.post('/api/user/register').send({ username: 'alice', password: 'abcdefgh', email: 'alice@example.test', verification_code: code });
    expect(registered.body).toMatchObject({ success: true });
    const alice = await login(app, 'alice@example.test', 'abcdefgh');
    expect((await alice.get('/api/user/self')).body.data).toMatchObject({ username: 'alice', email: 'alice@example.test', quota: 500 });
    const welcome = await dataSource.getRepository(LogEntity).findOneBy({ user_id: alice.id });
    expect(welcome).toMatchObject({ type: 4, content: '新用户注册赠送 500 额度' });

    // The code was used up; the address is now taken.
    const again = await app.http.post('/api/user/register').set('Accept-Language', 'en').send({ username: 'alice2', password: 'abcdefgh', email: 'alice@example.test', verification_code: code });
    expect(again.body.success).toBe(false);
    expect((await sendCode('alice@example.test')).body).toMatchObject({ success: false, message: 'This email address is already in use' });
    await setOption('QuotaForNewUser', '0');
  });

  it('refuses a resend inside 30 seconds, an expired code and too many wrong codes', async () => {
    expect((await sendCode('bob@example.test')).body.success).toBe(true);
    const first = codeIn((await inbox.next('bob@example.test')).text);
    const resend = await sendCode('bob@example.test');
    expect(resend.body).toMatchObject({ success: false, message: 'Please wait 30 seconds before asking for another code' });

    // Age the code past its expiry, as ten minutes would.
    await dataSource.getRepository(OneTimeCodeEntity).update({ subject: 'bob@example.test' }, { expires_at: 1, created_at: 1 });
    const expired = await app.http.post('/api/user/register').send({ username: 'bob', password: 'abcdefgh', email: 'bob@example.test', verification_code: first });
    expect(expired.body.success).toBe(false);

    // After the wait a new code can be sent; five wrong guesses burn it.
    expect((await sendCode('bob@example.test')).body.success).toBe(true);
    const second = codeIn((await inbox.next('bob@example.test')).text);
    const wrongCode = second === '123456' ? '654321' : '123456';
    for (let attempt = 0; attempt < 5; attempt++) {
      const guess = await app.http.post('/api/user/register').send({ username: 'bob', password: 'abcdefgh', email: 'bob@example.test', verification_code: wrongCode });
      expect(guess.body.success).toBe(false);
    }
    const burnt = await app.http.post('/api/user/register').send({ username: 'bob', password: 'abcdefgh', email: 'bob@example.test', verification_code: second });
    expect(burnt.body.success).toBe(false);
    expect(await dataSource.getRepository(OneTimeCodeEntity).countBy({ subject: 'bob@example.test' })).toBe(0);
  });

  it('applies the domain whitelist and the alias rules before sending anything', async () => {
    const mailsBefore = inbox.mails.length;
    await setOption('EmailDomainRestrictionEnabled', 'true');
    await setOption('EmailDomainWhitelist', 'gmail.com,example.test');
    expect((await sendCode('carol@elsewhere.test')).body).toMatchObject({ success: false, message: 'The administrator allows only whitelisted email domains, and yours is not on the list' });
    expect((await sendCode('not-an-address')).body).toMatchObject({ success: false, message: 'The email address is not valid' });
    expect((await sendCode('')).body).toMatchObject({ success: false, message: 'Please enter your email address!' });

    await setOption('EmailAliasRestrictionEnabled', 'true');
    const alias = 'Email aliases are not allowed: the address contains a special character';
    expect((await sendCode('carol+news@example.test')).body).toMatchObject({ success: false, message: alias });
    expect((await sendCode('ca.rol@gmail.com')).body).toMatchObject({ success: false, message: alias });
    expect(inbox.mails.length).toBe(mailsBefore);
    // Dots are a real part of the address on other providers.
    expect((await sendCode('ca.rol@example.test')).body.success).toBe(true);
    await inbox.next('ca.rol@example.test');
    await setOption('EmailAliasRestrictionEnabled', 'false');
    await setOption('EmailDomainRestrictionEnabled', 'false');
    await setOption('EmailVerificationEnabled', 'false');
  });

  it('resets a password with a single-use mailed link that ends every session', async () => {
    const dave = await registerUser(app, 'dave', 'dave-pass-1');
    await dataSource.query(testSql('UPDATE users SET email = ? WHERE id = ?'), ['dave@example.test', dave.id]);

    const asked = await en('/api/reset_password?email=Dave@example.test');
    expect(asked.body).toEqual({ success: true, message: 'Reset mail sent, check your mailbox', data: null });
    const mail = await inbox.next('dave@example.test');
    const link = new URL(/https:\/\/gateway\.example\.test\/user\/reset\?\S+/.exec(mail.text)![0]);
    const token = link.searchParams.get('token')!;
    expect(link.searchParams.get('email')).toBe('dave@example.test');

    const wrong = await app.http.post('/api/user/reset').set('Accept-Language', 'en').send({ email: 'dave@example.test', token: 'x'.repeat(32) });
    expect(wrong.body).toMatchObject({ success: false, message: 'The reset link is invalid or has expired' });

    const reset = await app.http.post('/api/user/reset').send({ email: 'dave@example.test', token });
    expect(reset.body.success).toBe(true);
    const newPassword = reset.body.data as string;
    expect(newPassword).toMatch(/^[A-Za-z0-9]{12}$/);
    expect((await dave.get('/api/user/self')).status).toBe(401);
    await login(app, 'dave', newPassword);
    expect((await app.http.post('/api/user/login').send({ username: 'dave', password: 'dave-pass-1' })).body.success).toBe(false);

    const reused = await app.http.post('/api/user/reset').set('Accept-Language', 'en').send({ email: 'dave@example.test', token });
    expect(reused.body).toMatchObject({ success: false, message: 'The reset link is invalid or has expired' });
    // Neither the token nor the new password is kept in plain text.
    const stored = JSON.stringify(await dataSource.getRepository(OneTimeCodeEntity).find());
    expect(stored).not.toContain(token);
  });

  it('answers a reset for an unknown address exactly like a known one, and mails nobody', async () => {
    const mailsBefore = inbox.mails.length;
    const unknown = await en('/api/reset_password?email=nobody@example.test');
    const known = await en('/api/reset_password?email=alice@example.test');
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await inbox.next('alice@example.test');
    expect(inbox.mails.length).toBe(mailsBefore + 1);
  });

  it('checks the Turnstile token on login, registration, verification and reset when enabled', async () => {
    await setOption('TurnstileSecretKey', TURNSTILE_SECRET);
    await setOption('TurnstileCheckEnabled', 'true');
    const calls: [string, () => ReturnType<typeof en>][] = [
      ['login', () => app.http.post(`/api/user/login?turnstile=${TOKEN}`).set('Accept-Language', 'en').send({ username: 'dave', password: 'wrong-password' })],
      ['register', () => app.http.post(`/api/user/register?turnstile=${TOKEN}`).set('Accept-Language', 'en').send({ username: 'erin', password: 'abcdefgh' })],
      ['verification', () => en(`/api/verification?email=erin@example.test&turnstile=${TOKEN}`)],
      ['reset', () => en(`/api/reset_password?email=erin@example.test&turnstile=${TOKEN}`)],
    ];
    let TOKEN = '';
    for (const [name, call] of calls) {
      TOKEN = '';
      expect([name, (await call()).body.message]).toEqual([name, 'The Turnstile token is missing']);
      TOKEN = 'robot-token';
      expect([name, (await call()).body.message]).toEqual([name, 'Turnstile check failed, refresh and try again!']);
      TOKEN = GOOD_TURNSTILE;
      expect([name, (await call()).body.message]).not.toEqual([name, expect.stringContaining('Turnstile')]);
    }
    expect(siteverify.requests.at(-1)?.form).toMatchObject({ secret: TURNSTILE_SECRET, response: GOOD_TURNSTILE });
    await setOption('TurnstileCheckEnabled', 'false');
    await inbox.next('erin@example.test');
  });
});
