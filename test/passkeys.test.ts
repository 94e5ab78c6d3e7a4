import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { generate } from 'otplib';
import { DataSource } from 'typeorm';
import type { PasskeyView } from '../src/modules/passkeys/passkeys.wire';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { BrowserSession } from './support/browser-session';
import { SoftAuthenticator } from './support/soft-authenticator';
import { startTestApp, TestApp, testSql } from './support/test-app';

const CONSOLE = 'http://localhost:3000';
const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describe('passkeys (WebAuthn)', () => {
  let app: TestApp;
  let root: Session;
  let alice: Session;
  let dataSource: DataSource;
  const aliceKey = new SoftAuthenticator();
  let aliceCredentialId = '';
  /** Every answer the server gave, searched at the end for the stored public keys. */
  const answers: string[] = [];

  async function setServerAddress(value: string) {
    expect((await root.put('/api/option/', { key: 'ServerAddress', value })).body.success).toBe(true);
  }

  /** Registers a passkey on the soft authenticator for a signed-in account, as the personal page does. */
  async function registerPasskey(session: Session, authenticator: SoftAuthenticator, name?: string): Promise<PasskeyView> {
    const options = await session.post('/api/user/passkeys/registration_options').set('User-Agent', MAC_CHROME);
    expect(options.body.success).toBe(true);
    const response = authenticator.register(options.body.data as PublicKeyCredentialCreationOptionsJSON, CONSOLE);
    const registered = await session.post('/api/user/passkeys', { response, ...(name ? { name } : {}) }).set('User-Agent', MAC_CHROME);
    answers.push(JSON.stringify(options.body), JSON.stringify(registered.body));
    expect(registered.body).toMatchObject({ success: true });
    return registered.body.data as PasskeyView;
  }

  async function signInOptions(browser: BrowserSession): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await browser.post('/api/user/login/passkey/options', {});
    expect(options.body.success).toBe(true);
    return options.body.data as PublicKeyCredentialRequestOptionsJSON;
  }

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    alice = await registerUser(app, 'alicepk');
    dataSource = app.app.get(DataSource);
    await setServerAddress(CONSOLE);
  });
  afterAll(async () => {
    await app.stop();
  });

  it('registers several passkeys per account with the relying party from ServerAddress, and lists, renames and deletes them', async () => {
    const options = (await alice.post('/api/user/passkeys/registration_options')).body.data as PublicKeyCredentialCreationOptionsJSON;
    expect(options.rp).toEqual({ name: 'AI Gateway', id: 'localhost' });
    expect(options.user.name).toBe('alicepk');
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'preferred' });

    const first = await registerPasskey(alice, aliceKey);
    expect(first).toMatchObject({ name: 'Chrome · macOS', last_used_time: 0, backed_up: false });
    aliceCredentialId = (await dataSource.query(testSql('SELECT credential_id FROM passkeys WHERE id = ?'), [first.id]))[0].credential_id;
    const second = await registerPasskey(alice, new SoftAuthenticator(), 'YubiKey');
    // The next registration excludes both, so one authenticator is not registered twice.
    const third = (await alice.post('/api/user/passkeys/registration_options')).body.data as PublicKeyCredentialCreationOptionsJSON;
    expect(third.excludeCredentials?.map((credential) => credential.id)).toContain(aliceCredentialId);
    expect(third.excludeCredentials).toHaveLength(2);

    const listed = (await alice.get('/api/user/passkeys')).body.data as PasskeyView[];
    expect(listed.map((passkey) => passkey.name)).toEqual(['Chrome · macOS', 'YubiKey']);
    expect(Object.keys(listed[0]).sort()).toEqual(['backed_up', 'created_time', 'id', 'last_used_time', 'name']);

    expect((await alice.put(`/api/user/passkeys/${second.id}`, { name: 'Desk key' })).body).toMatchObject({ success: true, message: '通行密钥已重命名' });
    expect((await alice.put(`/api/user/passkeys/${second.id}`, { name: '' })).body).toMatchObject({ success: false, message: '请输入名称' });
    expect((await alice.put(`/api/user/passkeys/${second.id}`, { name: 'x'.repeat(65) })).body).toMatchObject({ success: false, message: '名称不能超过 64 个字符' });
    // Another account's passkey is not yours to rename or delete.
    expect((await root.put(`/api/user/passkeys/${second.id}`, { name: 'mine' })).body).toMatchObject({ success: false, message: '通行密钥不存在' });
    expect((await root.delete(`/api/user/passkeys/${second.id}`)).body).toMatchObject({ success: false, message: '通行密钥不存在' });
    expect((await alice.delete(`/api/user/passkeys/${second.id}`)).body).toMatchObject({ success: true, message: '通行密钥已删除' });
    expect(((await alice.get('/api/user/passkeys')).body.data as PasskeyView[]).map((passkey) => passkey.name)).toEqual(['Chrome · macOS']);
  });

  it('signs in with a passkey alone (a discoverable credential), and records its use', async () => {
    const browser = new BrowserSession(app);
    const options = await signInOptions(browser);
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
    const signedIn = await browser.post('/api/user/login/passkey', { response: aliceKey.assert(options, CONSOLE) });
    answers.push(JSON.stringify(signedIn.body), JSON.stringify(signedIn.headers));
    expect(signedIn.body).toMatchObject({ success: true, data: { username: 'alicepk', require_2fa_setup: false } });
    expect((await browser.get('/api/user/self')).body.data.username).toBe('alicepk');
    const [used] = (await alice.get('/api/user/passkeys')).body.data as PasskeyView[];
    expect(used.last_used_time).toBeGreaterThan(0);
    const [row] = await dataSource.query(testSql('SELECT counter FROM passkeys WHERE id = ?'), [used.id]);
    expect(Number(row.counter)).toBe(1);
  });

  it('refuses a challenge it never issued, a replayed answer, an unknown credential, a counter that went back, another origin and a missing user verification', async () => {
    const browser = new BrowserSession(app);
    const refused = async (response: object, message: string) => {
      const answer = await browser.post('/api/user/login/passkey', { response });
      expect(answer.body).toMatchObject({ success: false, message });
      expect(JSON.stringify(answer.headers['set-cookie'] ?? [])).not.toContain('session=');
    };

    const options = await signInOptions(browser);
    await refused(aliceKey.assert(options, CONSOLE, undefined, { challenge: 'bm90LWEtY2hhbGxlbmdlLWl0LWlzc3VlZA' }), 'The passkey request expired or was already used; try again');

    const good = aliceKey.assert(await signInOptions(browser), CONSOLE);
    expect((await browser.post('/api/user/login/passkey', { response: good })).body.success).toBe(true);
    await refused(good, 'The passkey request expired or was already used; try again');

    const stranger = new SoftAuthenticator();
    stranger.register({ ...(await alice.post('/api/user/passkeys/registration_options')).body.data }, CONSOLE);
    await refused(stranger.assert(await signInOptions(browser), CONSOLE), 'This passkey is not registered here');

    // The server has seen a larger counter; an authenticator answering with 1 is a clone or a replay.
    await refused(aliceKey.assert(await signInOptions(browser), CONSOLE, undefined, { counter: 1 }), 'The passkey could not be verified');
    await refused(aliceKey.assert(await signInOptions(browser), CONSOLE, undefined, { origin: 'https://phish.example' }), 'The passkey could not be verified');
    await refused(aliceKey.assert(await signInOptions(browser), CONSOLE, undefined, { userVerified: false }), 'The passkey could not be verified');

    // A challenge issued to register a passkey does not sign anybody in, and is spent by the attempt.
    const registration = (await alice.post('/api/user/passkeys/registration_options')).body.data as PublicKeyCredentialCreationOptionsJSON;
    const misused = aliceKey.assert({ challenge: registration.challenge, rpId: 'localhost' }, CONSOLE);
    await refused(misused, 'The passkey request expired or was already used; try again');
    expect((await alice.post('/api/user/passkeys', { response: new SoftAuthenticator().register(registration, CONSOLE) })).body).toMatchObject({ success: false, message: '通行密钥请求已过期或已使用，请重试' });

    // Malformed answers are refused in the envelope, never a 500.
    for (const body of [{}, { response: 'x' }, { response: {} }, { response: { id: 1, response: { clientDataJSON: '%%%' } } }]) {
      const answer = await browser.post('/api/user/login/passkey', body);
      expect(answer.status).toBe(200);
      expect(answer.body.success).toBe(false);
    }
    expect((await browser.post('/api/user/login/passkey', {})).body.message).toBe('The passkey answer is malformed');
  });

  it('refuses to register the same credential twice, and a registration made for another origin', async () => {
    const before = ((await alice.get('/api/user/passkeys')).body.data as PasskeyView[]).length;
    const options = (await alice.post('/api/user/passkeys/registration_options')).body.data as PublicKeyCredentialCreationOptionsJSON;
    const made = new SoftAuthenticator().register(options, CONSOLE);
    const added = (await alice.post('/api/user/passkeys', { response: made })).body.data as PasskeyView;
    // Attestation "none" signs nothing, so the same credential can be presented again under a fresh challenge.
    const fresh = (await alice.post('/api/user/passkeys/registration_options')).body.data as PublicKeyCredentialCreationOptionsJSON;
    const clientData = { type: 'webauthn.create', challenge: fresh.challenge, origin: CONSOLE, crossOrigin: false };
    const again = { ...made, response: { ...made.response, clientDataJSON: Buffer.from(JSON.stringify(clientData)).toString('base64url') } };
    expect((await alice.post('/api/user/passkeys', { response: again })).body).toMatchObject({ success: false, message: '此通行密钥已添加过' });

    const elsewhere = new SoftAuthenticator().register((await alice.post('/api/user/passkeys/registration_options')).body.data, 'https://phish.example');
    expect((await alice.post('/api/user/passkeys', { response: elsewhere })).body).toMatchObject({ success: false, message: '通行密钥验证失败' });
    expect(((await alice.get('/api/user/passkeys')).body.data as PasskeyView[]).length).toBe(before + 1);
    expect((await alice.delete(`/api/user/passkeys/${added.id}`)).body.success).toBe(true);
  });

  it('answers the second step of a password sign-in with a passkey where TOTP is asked', async () => {
    const bob = await registerUser(app, 'bobpk');
    const setup = await bob.post('/api/user/2fa/setup');
    const secret = setup.body.data.secret as string;
    expect((await bob.post('/api/user/2fa/enable', { code: await generate({ secret }) })).body.success).toBe(true);
    const bobKey = new SoftAuthenticator();
    await registerPasskey(bob, bobKey);

    const browser = new BrowserSession(app);
    expect((await browser.get('/api/user/login/2fa/passkey')).body.data).toEqual({ available: false });
    expect((await browser.post('/api/user/login/2fa/passkey/options', {})).body).toMatchObject({ success: false, message: 'The sign-in timed out; enter your username and password again' });
    expect((await browser.post('/api/user/login', { username: 'bobpk', password: 'user-pass-1' })).body.data).toEqual({ require_2fa: true });
    expect((await browser.get('/api/user/login/2fa/passkey')).body.data).toEqual({ available: true });

    const options = (await browser.post('/api/user/login/2fa/passkey/options', {})).body.data as PublicKeyCredentialRequestOptionsJSON;
    expect(options.allowCredentials).toHaveLength(1);
    // Alice's passkey cannot stand in for Bob's second factor.
    expect((await browser.post('/api/user/login/2fa/passkey', { response: aliceKey.assert(options, CONSOLE) })).body).toMatchObject({ success: false, message: 'This passkey is not registered here' });

    const again = (await browser.post('/api/user/login/2fa/passkey/options', {})).body.data as PublicKeyCredentialRequestOptionsJSON;
    const done = await browser.post('/api/user/login/2fa/passkey', { response: bobKey.assert(again, CONSOLE, undefined, { userVerified: false }) });
    expect(done.body).toMatchObject({ success: true, data: { username: 'bobpk' } });
    expect((await browser.get('/api/user/self')).body.data.username).toBe('bobpk');

    // A passkey alone signs Bob in without the TOTP step: it proved possession and, verified, the person.
    const another = new BrowserSession(app);
    const alone = await another.post('/api/user/login/passkey', { response: bobKey.assert(await signInOptions(another), CONSOLE) });
    expect(alone.body).toMatchObject({ success: true, data: { username: 'bobpk' } });

    // A disabled account is not signed in by its passkey.
    expect((await root.post('/api/user/manage', { id: bob.id, action: 'disable' })).body.success).toBe(true);
    const disabled = new BrowserSession(app);
    expect((await disabled.post('/api/user/login/passkey', { response: bobKey.assert(await signInOptions(disabled), CONSOLE) })).body).toMatchObject({ success: false });
  });

  it('tells the second step of an account without passkeys that it has none', async () => {
    const carol = await registerUser(app, 'carolpk');
    const secret = (await carol.post('/api/user/2fa/setup')).body.data.secret as string;
    expect((await carol.post('/api/user/2fa/enable', { code: await generate({ secret }) })).body.success).toBe(true);
    const browser = new BrowserSession(app);
    expect((await browser.post('/api/user/login', { username: 'carolpk', password: 'user-pass-1' })).body.data).toEqual({ require_2fa: true });
    expect((await browser.get('/api/user/login/2fa/passkey')).body.data).toEqual({ available: false });
    expect((await browser.post('/api/user/login/2fa/passkey/options', {})).body).toMatchObject({ success: false, message: 'This account has no passkey' });
  });

  it('falls back to the console origin the browser names when ServerAddress is unset, and follows ServerAddress when set', async () => {
    await setServerAddress('');
    const fallback = await app.http.post('/api/user/login/passkey/options').set('Origin', 'http://localhost:5173').send({});
    expect(fallback.body.data.rpId).toBe('localhost');
    // The origin is kept with the challenge: the answer must come from the same console.
    const viaOrigin = await app.http.post('/api/user/login/passkey').set('Origin', 'http://localhost:5173').send({ response: aliceKey.assert(fallback.body.data, 'http://localhost:5173') });
    expect(viaOrigin.body).toMatchObject({ success: true, data: { username: 'alicepk' } });
    const noOrigin = await app.http.post('/api/user/login/passkey/options').send({});
    expect(noOrigin.body.data.rpId).toBe('127.0.0.1');

    await setServerAddress('https://gateway.example.test/console');
    const configured = await app.http.post('/api/user/login/passkey/options').set('Origin', 'http://localhost:5173').send({});
    expect(configured.body.data.rpId).toBe('gateway.example.test');
    // A passkey registered for localhost does not answer for another host.
    const forLocalhost = aliceKey.assert({ ...configured.body.data, rpId: 'localhost' }, 'https://gateway.example.test');
    expect((await app.http.post('/api/user/login/passkey').send({ response: forLocalhost })).body).toMatchObject({ success: false, message: '通行密钥验证失败' });
    await setServerAddress(CONSOLE);
  });

  it('keeps the public keys out of every answer', async () => {
    const rows: { public_key: string }[] = await dataSource.query(testSql('SELECT public_key FROM passkeys'));
    expect(rows.length).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(0);
    for (const { public_key } of rows) for (const answer of answers) expect(answer).not.toContain(public_key);
  });
});
