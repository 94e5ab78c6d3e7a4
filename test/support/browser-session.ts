import request from 'supertest';
import type { TestApp } from './test-app';

/**
 * A browser's cookie jar against the app: keeps every cookie the server sets (session,
 * OAuth state binding) and, once signed in, names the user in New-Api-User.
 */
export class BrowserSession {
  private readonly cookies = new Map<string, string>();
  userId?: number;

  constructor(private readonly app: TestApp) {}

  async get(path: string, language = 'en'): Promise<request.Response> {
    return this.keep(await this.withHeaders(this.app.http.get(path), language));
  }

  async post(path: string, body: object, language = 'en'): Promise<request.Response> {
    return this.keep(await this.withHeaders(this.app.http.post(path), language).send(body));
  }

  /** Submits an HTML form (application/x-www-form-urlencoded), as an IdP's auto-posting page does. */
  async postForm(path: string, fields: Record<string, string>, language = 'en'): Promise<request.Response> {
    return this.keep(await this.withHeaders(this.app.http.post(path), language).type('form').send(fields));
  }

  /** Signs in with a password, as the login page does. */
  async login(username: string, password: string): Promise<void> {
    const response = await this.post('/api/user/login', { username, password });
    if (!response.body.success) throw new Error(`login failed: ${response.body.message}`);
    this.userId = response.body.data.id;
  }

  private withHeaders(test: request.Test, language: string): request.Test {
    test.set('Accept-Language', language);
    if (this.cookies.size) test.set('Cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    if (this.userId !== undefined) test.set('New-Api-User', String(this.userId));
    return test;
  }

  private keep(response: request.Response): request.Response {
    for (const setCookie of (response.headers['set-cookie'] as unknown as string[] | undefined) ?? []) {
      const [pair] = setCookie.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    if (response.body?.success && response.body.data && typeof response.body.data === 'object' && 'id' in response.body.data && response.body.message !== 'bind') {
      this.userId ??= response.body.data.id as number;
    }
    return response;
  }
}
