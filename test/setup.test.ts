import { login, ROOT_PASSWORD, ROOT_USERNAME } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';

describe('first-run setup', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.stop());

  it('reports an uninitialised system and refuses sign-in until setup', async () => {
    const setup = await app.http.get('/api/setup').expect(200);
    expect(setup.body).toEqual({ success: true, message: '', data: { status: false, root_init: false, database_type: expect.stringMatching(/sqlite|mysql|postgres/) } });
    const register = await app.http.post('/api/user/register').send({ username: 'early', password: 'early-pass-1' });
    expect(register.body.success).toBe(false);
  });

  it('validates the administrator fields', async () => {
    const cases = [
      [{ username: '', password: 'abcdefgh', confirmPassword: 'abcdefgh' }, 'Please enter the admin username'],
      [{ username: 'root', password: 'short', confirmPassword: 'short' }, 'Password must be at least 8 characters long'],
      [{ username: 'root', password: 'abcdefgh', confirmPassword: 'abcdefgX' }, 'The two passwords entered do not match'],
    ] as const;
    for (const [body, message] of cases) {
      const response = await app.http.post('/api/setup').set('Accept-Language', 'en').send(body).expect(200);
      expect(response.body).toMatchObject({ success: false, message });
    }
    expect((await app.http.get('/api/setup')).body.data.root_init).toBe(false);
  });

  it('creates the root user, sets the usage mode, and refuses a second time', async () => {
    const response = await app.http
      .post('/api/setup')
      .send({ username: ROOT_USERNAME, password: ROOT_PASSWORD, confirmPassword: ROOT_PASSWORD, SelfUseModeEnabled: true, DemoSiteEnabled: false })
      .expect(200);
    expect(response.body.success).toBe(true);
    expect((await app.http.get('/api/setup')).body.data).toMatchObject({ status: true, root_init: true });
    expect((await app.http.get('/api/status')).body.data).toMatchObject({ self_use_mode_enabled: true, demo_site_enabled: false, setup: true });

    const again = await app.http.post('/api/setup').send({ username: 'other', password: 'abcdefgh', confirmPassword: 'abcdefgh' });
    expect(again.body.success).toBe(false);

    const root = await login(app, ROOT_USERNAME, ROOT_PASSWORD);
    const self = await root.get('/api/user/self').expect(200);
    expect(self.body.data).toMatchObject({ username: ROOT_USERNAME, role: 100, status: 1 });
    expect(self.body.data).not.toHaveProperty('password');
    expect(self.body.data).not.toHaveProperty('access_token');
  });
});
