import { generate } from 'otplib';
import { DataSource } from 'typeorm';
import { UserEntity } from '../src/modules/users/entities/user.entity';
import { TotpClock } from '../src/modules/two-factor/totp-clock';
import { registerUser, Session, setupRoot } from './support/accounts';
import { BrowserSession } from './support/browser-session';
import { generateSigningKey, TestSamlIdp, type AssertionOptions } from './support/saml-idp';
import { sameDatabaseEnv, startTestApp, TestApp } from './support/test-app';

describe('SAML 2.0 sign-in', () => {
  let app: TestApp;
  let root: Session;
  let dataSource: DataSource;
  const idp = new TestSamlIdp();
  const attacker = generateSigningKey('attacker');
  const answers: string[] = [];
  let sp: { entityId: string; acsUrl: string };

  const setOptions = async (options: Record<string, string>) => {
    for (const [key, value] of Object.entries(options)) {
      const response = await root.put('/api/option/', { key, value });
      expect(response.body).toMatchObject({ success: true });
    }
  };
  const users = () => dataSource.getRepository(UserEntity);
  const remember = <T extends { body: unknown; headers: Record<string, unknown> }>(response: T): T => {
    answers.push(JSON.stringify(response.body), JSON.stringify(response.headers));
    return response;
  };

  /** The browser's first leg: the login redirect to the IdP; answers the AuthnRequest's ID. */
  const startLogin = async (browser: BrowserSession): Promise<string> => {
    const response = remember(await browser.get('/api/saml/login'));
    expect(response.status).toBe(302);
    expect(String(response.headers.location)).toMatch(new RegExp(`^${idp.ssoUrl}\\?SAMLRequest=`));
    return TestSamlIdp.readRequest(String(response.headers.location)).id;
  };
  /** The IdP's auto-posting form arriving at the ACS; answers where the browser is sent next. */
  const postToAcs = async (browser: BrowserSession, samlResponse: string): Promise<string> => {
    const response = remember(await browser.postForm('/api/saml/acs', { SAMLResponse: samlResponse, RelayState: '' }));
    expect(response.status).toBe(303);
    return String(response.headers.location);
  };
  const assertion = (inResponseTo: string, overrides: Partial<AssertionOptions> = {}): AssertionOptions => ({
    inResponseTo,
    nameId: 'okta|alice',
    audience: sp.entityId,
    recipient: sp.acsUrl,
    attributes: { login: 'alice', email: 'alice@corp.example', groups: ['Everyone', 'gateway-vip'] },
    ...overrides,
  });
  /** A whole sign-in in a fresh browser; answers the browser and where the ACS sent it. */
  const signIn = async (overrides: Partial<AssertionOptions> = {}) => {
    const browser = new BrowserSession(app);
    const requestId = await startLogin(browser);
    const location = await postToAcs(browser, idp.respond(assertion(requestId, overrides)));
    return { browser, location };
  };
  /** The console's landing page asking who signed in. */
  const landedUser = async (browser: BrowserSession) => {
    const response = remember(await browser.get('/api/saml/session'));
    expect(response.body).toMatchObject({ success: true });
    browser.userId = response.body.data.id;
    return response.body.data as { id: number; username: string; email: string; group: string };
  };

  beforeAll(async () => {
    await idp.start();
    app = await startTestApp();
    root = await setupRoot(app);
    dataSource = app.app.get(DataSource);
    sp = { entityId: `${app.baseUrl}/api/saml/metadata`, acsUrl: `${app.baseUrl}/api/saml/acs` };
    await setOptions({
      ServerAddress: app.baseUrl,
      'saml.idp_metadata_url': idp.metadataUrl,
      'saml.username_attribute': 'login',
      'saml.email_attribute': 'email',
      'saml.group_attribute': 'groups',
      'saml.group_mapping': JSON.stringify({ 'gateway-vip': 'vip', 'gateway-svip': 'svip' }),
    });
  });
  afterAll(async () => {
    await app.stop();
    await idp.stop();
  });

  it('serves the SP metadata at a fixed address, with our entity id, ACS and signed assertions wanted', async () => {
    const response = remember(await app.http.get('/api/saml/metadata'));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    const xml = String(response.text);
    expect(xml).toContain(`entityID="${sp.entityId}"`);
    expect(xml).toMatch(new RegExp(`AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${sp.acsUrl}"`));
    expect(xml).toContain('WantAssertionsSigned="true"');
  });

  it('refuses the login while SAML is off, with the reason for the landing page', async () => {
    const response = await app.http.get('/api/saml/login');
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/saml/callback?error=saml.disabled');
    expect((await app.http.get('/api/status')).body.data.saml_enabled).toBe(false);
  });

  it('reads the IdP metadata through the outbound guard, and shows root what it found', async () => {
    await setOptions({ 'fetch_setting.allow_private_ip': 'false' });
    const refused = remember(await root.get('/api/saml/settings').set('Accept-Language', 'en'));
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toMatch(/private/i);
    await setOptions({ 'fetch_setting.allow_private_ip': 'true', 'saml.enabled': 'true' });
    const view = remember(await root.get('/api/saml/settings'));
    expect(view.body).toMatchObject({
      success: true,
      data: { sp_entity_id: sp.entityId, acs_url: sp.acsUrl, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificates: [{ subject: 'CN=test-idp' }] },
    });
    const user = await registerUser(app, 'plain1');
    expect((await user.get('/api/saml/settings')).status).toBe(403);
    expect((await app.http.get('/api/status')).body.data.saml_enabled).toBe(true);
  });

  it('sends the browser to the IdP with an AuthnRequest for our ACS', async () => {
    const response = await app.http.get('/api/saml/login?aff=ABCD');
    const request = TestSamlIdp.readRequest(String(response.headers.location));
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${sp.acsUrl}"`);
    expect(request.xml).toContain(`>${sp.entityId}</saml:Issuer>`);
    expect(request.id).toMatch(/^_/);
    expect(request.relayState).toBe('ABCD');
  });

  it('signs a new user up on the good path: username, email and mapped group from the attributes', async () => {
    const { browser, location } = await signIn();
    expect(location).toBe('/saml/callback');
    const user = await landedUser(browser);
    expect(user).toMatchObject({ username: 'alice', email: 'alice@corp.example', group: 'vip' });
    expect((await browser.get('/api/user/self')).body).toMatchObject({ success: true, data: { id: user.id, username: 'alice' } });
    expect((await users().findOneByOrFail({ id: user.id })).saml_id).toBe('okta|alice');

    // The next sign-in lands in the same account; the group follows the IdP's groups.
    const again = await signIn({ attributes: { login: 'alice', email: 'alice@corp.example', groups: ['Everyone'] } });
    expect(await landedUser(again.browser)).toMatchObject({ id: user.id, group: 'default' });
    expect(await users().countBy({ saml_id: 'okta|alice' })).toBe(1);
  });

  it('refuses a forged signature and a tampered assertion', async () => {
    const forged = await signIn({ nameId: 'okta|mallory', signWith: attacker });
    expect(forged.location).toBe('/saml/callback?error=saml.signature_invalid');
    const tampered = await signIn({ nameId: 'okta|mallory', tamper: (xml) => xml.replace('>okta|mallory<', '>okta|alice<') });
    expect(tampered.location).toBe('/saml/callback?error=saml.signature_invalid');
    expect((await tampered.browser.get('/api/saml/session')).status).toBe(401);
    expect(await users().countBy({ saml_id: 'okta|mallory' })).toBe(0);
  });

  it('refuses an assertion for another audience, another recipient, or an expired one', async () => {
    expect((await signIn({ audience: 'https://other-sp.example/metadata' })).location).toBe('/saml/callback?error=saml.audience_mismatch');
    expect((await signIn({ recipient: 'https://other-sp.example/acs' })).location).toBe('/saml/callback?error=saml.recipient_mismatch');
    expect((await signIn({ validForSeconds: -600 })).location).toBe('/saml/callback?error=saml.assertion_expired');
  });

  it('refuses an answer to a request the gateway never sent', async () => {
    const browser = new BrowserSession(app);
    expect(await postToAcs(browser, idp.respond(assertion('_never-sent')))).toBe('/saml/callback?error=saml.request_unknown');
  });

  it('refuses a replayed assertion, on this instance and on another sharing the database', async () => {
    const browser = new BrowserSession(app);
    const samlResponse = idp.respond(assertion(await startLogin(browser)));
    expect(await postToAcs(browser, samlResponse)).toBe('/saml/callback');
    expect(await postToAcs(new BrowserSession(app), samlResponse)).toBe('/saml/callback?error=saml.assertion_replayed');

    const second = await startTestApp(sameDatabaseEnv(app.config));
    try {
      const elsewhere = new BrowserSession(second);
      const response = await elsewhere.postForm('/api/saml/acs', { SAMLResponse: samlResponse });
      expect(response.headers.location).toBe('/saml/callback?error=saml.assertion_replayed');
      // A request started on one instance may be answered at another (the request id is in the database).
      const otherBrowser = new BrowserSession(second);
      const requestId = await startLogin(otherBrowser);
      expect((await app.http.post('/api/saml/acs').type('form').send({ SAMLResponse: idp.respond(assertion(requestId)) })).headers.location).toBe('/saml/callback');
    } finally {
      await second.stop();
    }
  });

  it('binds a first sign-in to the account with the same email only when the setting allows', async () => {
    const bob = await registerUser(app, 'bob');
    await users().update({ id: bob.id }, { email: 'bob@corp.example' });
    const bobAttributes = { login: 'bob.smith', email: 'bob@corp.example' };

    const separate = await signIn({ nameId: 'okta|bob', attributes: bobAttributes });
    const created = await landedUser(separate.browser);
    expect(created.id).not.toBe(bob.id);
    expect(created.email).toBe('');
    await users().update({ id: created.id }, { saml_id: '' });

    await setOptions({ 'saml.bind_by_email': 'true' });
    const bound = await signIn({ nameId: 'okta|bob', attributes: bobAttributes });
    expect(await landedUser(bound.browser)).toMatchObject({ id: bob.id, username: 'bob' });
    expect((await users().findOneByOrFail({ id: bob.id })).saml_id).toBe('okta|bob');
    // Another IdP subject with the same address cannot take the bound account over.
    expect((await signIn({ nameId: 'okta|bob-impostor', attributes: bobAttributes })).location).toBe('/saml/callback?error=saml.email_bound_elsewhere');
    await setOptions({ 'saml.bind_by_email': 'false' });
  });

  it('asks an account with two-factor sign-in for its code after the IdP, like any sign-in', async () => {
    let now = Math.floor(Date.now() / 1000);
    jest.spyOn(app.app.get(TotpClock), 'nowSeconds').mockImplementation(() => now);
    const first = await signIn({ nameId: 'okta|carol', attributes: { login: 'carol', email: 'carol@corp.example' } });
    const carol = await landedUser(first.browser);
    const secret = (await first.browser.post('/api/user/2fa/setup', {})).body.data.secret as string;
    expect((await first.browser.post('/api/user/2fa/enable', { code: await generate({ secret, epoch: now }) })).body).toMatchObject({ success: true });

    const next = await signIn({ nameId: 'okta|carol', attributes: { login: 'carol', email: 'carol@corp.example' } });
    expect(next.location).toBe('/login?second_factor=1');
    expect((await next.browser.get('/api/saml/session')).status).toBe(401);
    now += 30;
    const finished = remember(await next.browser.post('/api/user/login/2fa', { code: await generate({ secret, epoch: now }) }));
    expect(finished.body).toMatchObject({ success: true, data: { id: carol.id } });
  });

  it('refuses a transient NameID, and a new account while registration is closed', async () => {
    expect((await signIn({ nameId: 'transient-123', nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient' })).location).toBe(
      '/saml/callback?error=saml.name_id_transient',
    );
    await setOptions({ RegisterEnabled: 'false' });
    expect((await signIn({ nameId: 'okta|dave', attributes: { login: 'dave' } })).location).toBe('/saml/callback?error=user.register_disabled');
    // An account already bound still signs in.
    expect((await signIn()).location).toBe('/saml/callback');
    await setOptions({ RegisterEnabled: 'true' });
  });

  it('keeps keys out of every answer', async () => {
    const all = answers.join('\n');
    expect(all).not.toContain('PRIVATE KEY');
    expect(all).not.toContain(idp.key.privateKey.split('\n')[1]);
  });
});
