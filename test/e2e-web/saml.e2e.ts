import type { Browser } from 'playwright-core';
import { generateSigningKey, TestSamlIdp } from '../support/saml-idp';
import { closeSession, loginThroughUi, ROOT_USER, rootOptionsApi, startConsole, WatchedPage, type TestServer } from './harness';

/** SAML sign-in through the real pages: root's settings card, the login button, the IdP's form post, the landing page. */
describe('SAML sign-in (/setting system tab, /login, /saml/callback)', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  const idp = new TestSamlIdp();

  beforeAll(async () => {
    await idp.start();
    ({ server, browser, watched } = await startConsole({ signInAs: false }));
    // The IdP listens on loopback, which the outbound guard refuses by default.
    const setOptions = await rootOptionsApi(server.baseUrl);
    await setOptions({ ServerAddress: server.baseUrl, 'fetch_setting.allow_private_ip': 'true' });
  });
  afterAll(async () => {
    await closeSession({ watched, browser, server });
    await idp.stop();
  });

  test('root configures SAML on the system tab and checks the metadata (zh)', async () => {
    const { page } = watched;
    await loginThroughUi(watched, ROOT_USER.username, ROOT_USER.password);
    await watched.goto('/setting?tab=system');
    const card = page.getByTestId('system-saml');
    await card.getByText(`${server.baseUrl}/api/saml/acs`, { exact: false }).waitFor();
    await card.getByLabel('允许通过 SAML 登录').check();
    await card.getByLabel('IdP 元数据 URL').fill(idp.metadataUrl);
    await card.getByLabel('用户名属性').fill('login');
    await card.getByLabel('分组属性').fill('groups');
    await card.getByLabel('分组映射').fill('{"gateway-vip": "vip"}');
    await card.getByRole('button', { name: /保存/ }).click();
    await page.getByText('保存成功').first().waitFor();
    await card.getByTestId('saml-check').click();
    const found = card.getByTestId('saml-found');
    await found.getByText(idp.entityId).waitFor();
    await found.getByText(idp.ssoUrl).waitFor();
    await found.getByText('CN=test-idp', { exact: false }).waitFor();
    await watched.screenshot('saml-settings');
  });

  test('signs in with the button, through the IdP, onto the token page (zh)', async () => {
    const visitor = await WatchedPage.open(browser, server.baseUrl);
    try {
      const { page } = visitor;
      idp.nextSignIn = { nameId: 'idp|alice', attributes: { login: 'alice', email: 'alice@corp.example', groups: ['gateway-vip'] } };
      await visitor.goto('/login');
      const button = page.getByTestId('saml-login');
      await button.getByText('使用 SAML 单点登录').waitFor();
      await visitor.screenshot('saml-login');
      await button.click();
      await page.waitForURL('**/token');
      const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string; group: string } | null);
      expect(user).toMatchObject({ username: 'alice', group: 'vip' });
      visitor.expectNoConsoleErrors();
    } finally {
      await visitor.close();
    }
  });

  test('on a phone, in English: a forged signature lands on the explanation', async () => {
    const phone = await WatchedPage.open(browser, server.baseUrl, 390, 'en');
    try {
      const { page } = phone;
      idp.nextSignIn = { nameId: 'idp|mallory', attributes: { login: 'mallory' }, signWith: generateSigningKey('attacker') };
      await phone.goto('/login');
      await page.getByTestId('saml-login').getByText('Continue with SAML single sign-on').click();
      await page.waitForURL('**/saml/callback?error=saml.signature_invalid');
      const alert = page.getByTestId('saml-error');
      await alert.getByText('SAML sign-in failed').waitFor();
      await alert.getByText('The answer from the identity provider has no valid signature.').waitFor();
      await phone.screenshot('saml-refused-en');
      expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
      phone.expectNoConsoleErrors();
    } finally {
      await phone.close();
    }
  });
});
