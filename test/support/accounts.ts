import request from 'supertest';
import type { TestApp } from './test-app';

export const ROOT_USERNAME = 'root';
export const ROOT_PASSWORD = 'root-pass-1';

/** A signed-in browser: sends its session cookie and New-Api-User on every call. */
export interface Session {
  id: number;
  username: string;
  cookie: string;
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  put(path: string, body?: object): request.Test;
  delete(path: string): request.Test;
}

export function sessionFor(app: TestApp, id: number, username: string, cookie: string): Session {
  const withAuth = (test: request.Test) => test.set('Cookie', cookie).set('New-Api-User', String(id));
  return {
    id,
    username,
    cookie,
    get: (path) => withAuth(app.http.get(path)),
    post: (path, body = {}) => withAuth(app.http.post(path)).send(body),
    put: (path, body = {}) => withAuth(app.http.put(path)).send(body),
    delete: (path) => withAuth(app.http.delete(path)),
  };
}

export async function login(app: TestApp, username: string, password: string): Promise<Session> {
  const response = await app.http.post('/api/user/login').send({ username, password });
  if (!response.body.success) throw new Error(`login as ${username} failed: ${response.body.message}`);
  const setCookie = response.headers['set-cookie'] as unknown as string[];
  const cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
  return sessionFor(app, response.body.data.id, username, cookie);
}

/** Runs first-run setup and signs in as root. */
export async function setupRoot(app: TestApp): Promise<Session> {
  const response = await app.http
    .post('/api/setup')
    .send({ username: ROOT_USERNAME, password: ROOT_PASSWORD, confirmPassword: ROOT_PASSWORD });
  if (!response.body.success) throw new Error(`setup failed: ${response.body.message}`);
  return login(app, ROOT_USERNAME, ROOT_PASSWORD);
}

/** Registers an ordinary user and signs them in. */
export async function registerUser(app: TestApp, username: string, password = 'user-pass-1', extra: object = {}): Promise<Session> {
  const response = await app.http.post('/api/user/register').send({ username, password, password2: password, ...extra });
  if (!response.body.success) throw new Error(`register ${username} failed: ${response.body.message}`);
  return login(app, username, password);
}

/** Root promotes a registered user to admin and returns their session. */
export async function createAdmin(app: TestApp, root: Session, username: string): Promise<Session> {
  const user = await registerUser(app, username);
  const response = await root.post('/api/user/manage', { id: user.id, action: 'promote' });
  if (!response.body.success) throw new Error(`promote ${username} failed: ${response.body.message}`);
  return user;
}
