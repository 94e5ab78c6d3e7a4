import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const ROOT = path.resolve(__dirname, '..', '..');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-artifacts', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface TestServer {
  baseUrl: string;
  /** The scratch SQLite file, for tests that seed rows directly. */
  dbPath: string;
  stop: () => Promise<void>;
}

/** Starts dist/src/main.js on a scratch SQLite database and a free port; waits for /api/status. */
export async function startServer(): Promise<TestServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-e2e-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      SQLITE_PATH: path.join(dir, 'db.sqlite'),
      SESSION_SECRET: 'e2e-test-secret',
      WEB_DIST_DIR: path.join(ROOT, 'web', 'dist'),
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Generous: on a loaded machine the server's start alone has taken over 30 s.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/status`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    dbPath: path.join(dir, 'db.sqlite'),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/**
 * A browser page that records console errors and uncaught exceptions; `allow` lists patterns of
 * errors a test provokes on purpose (e.g. the browser's own log line for an expected 401).
 */
export class WatchedPage {
  readonly errors: string[] = [];
  allow: RegExp[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.record(message.text());
    });
    page.on('pageerror', (error) => this.record(`pageerror: ${error.message}`));
    // Names the request behind the browser's anonymous "Failed to load resource" line.
    page.on('response', (response) => {
      if (response.status() >= 400) this.record(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
    });
  }

  /** A page `width` px wide; with a `language`, the console opens in it (as if the reader had chosen it before). */
  static async open(browser: Browser, baseUrl: string, width = 1280, language?: string): Promise<WatchedPage> {
    const context = await browser.newContext({ viewport: { width, height: 860 }, baseURL: baseUrl });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    if (language) await context.addInitScript((chosen) => localStorage.setItem('i18nextLng', chosen), language);
    const page = await context.newPage();
    return new WatchedPage(context, page, baseUrl);
  }

  private record(text: string) {
    if (!this.allow.some((pattern) => pattern.test(text))) this.errors.push(text);
  }

  async goto(pathname: string) {
    await this.page.goto(pathname);
    await this.page.waitForLoadState('networkidle');
  }

  /** Saves a screenshot at desktop width and at 390 px, then restores the viewport. */
  async screenshot(name: string) {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const original = this.page.viewportSize() ?? { width: 1280, height: 860 };
    await this.page.setViewportSize({ width: 1280, height: 860 });
    await this.page.waitForTimeout(250);
    await this.page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-desktop.png`), fullPage: true });
    await this.page.setViewportSize({ width: 390, height: 844 });
    await this.page.waitForTimeout(250);
    await this.page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-mobile.png`), fullPage: true });
    await this.page.setViewportSize(original);
    await this.page.waitForTimeout(150);
  }

  expectNoConsoleErrors() {
    expect(this.errors).toEqual([]);
  }

  async close() {
    await this.context.close();
  }
}

type Credentials = { username: string; password: string };

export const ROOT_USER: Credentials = { username: 'root', password: '12345678' };

/** First-run setup through the API, for files that do not test the setup page itself. */
export async function setupThroughApi(baseUrl: string, user = ROOT_USER) {
  const response = await fetch(`${baseUrl}/api/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username: user.username,
      password: user.password,
      confirmPassword: user.password,
      SelfUseModeEnabled: false,
      DemoSiteEnabled: false,
    }),
  });
  const body = (await response.json()) as { success: boolean; message: string };
  if (!body.success) throw new Error(`setup failed: ${body.message}`);
}

/** Registers an ordinary user through the API (registration is open by default). */
export async function registerThroughApi(baseUrl: string, user: Credentials) {
  const response = await fetch(`${baseUrl}/api/user/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...user, password2: user.password, email: '', verification_code: '', aff_code: '' }),
  });
  const body = (await response.json()) as { success: boolean; message: string };
  if (!body.success) throw new Error(`register ${user.username} failed: ${body.message}`);
}

/** Signs in through the login form and dismisses the default-password modal if it appears. */
export async function loginThroughUi(watched: WatchedPage, username: string, password: string) {
  const { page } = watched;
  await watched.goto('/login');
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.getByTestId('login-submit').click();
  const modal = page.getByTestId('default-password-modal');
  await Promise.race([
    page.waitForURL('**/token'),
    modal.waitFor({ state: 'visible' }),
  ]);
  if (await modal.isVisible()) {
    await modal.getByRole('button').first().click();
    await page.waitForURL('**/token');
  }
  await page.waitForLoadState('networkidle');
}

/** Root's session through the API: answers a function that sets options as root (settings a test needs besides the pages it drives). */
export async function rootOptionsApi(baseUrl: string): Promise<(options: Record<string, string>) => Promise<void>> {
  const login = await fetch(`${baseUrl}/api/user/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ROOT_USER) });
  const cookie = login.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
  const { data } = (await login.json()) as { data: { id: number } };
  return async (options) => {
    for (const [key, value] of Object.entries(options)) {
      const response = await fetch(`${baseUrl}/api/option/`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Cookie: cookie, 'New-Api-User': String(data.id) },
        body: JSON.stringify({ key, value }),
      });
      const body = (await response.json()) as { success: boolean; message: string };
      if (!body.success) throw new Error(`setting ${key} failed: ${body.message}`);
    }
  };
}

export interface ConsoleSession {
  server: TestServer;
  browser: Browser;
  watched: WatchedPage;
}

export interface ConsoleOptions {
  /** Users registered through the API once root is set up. */
  register?: readonly Credentials[];
  /** Whom the page signs in as through the login form: root unless given; false leaves it signed out. */
  signInAs?: Credentials | false;
}

/**
 * The start most browser test files share: the built server on a scratch database, set up with
 * root (and the users to register), Chromium, and a watched page signed in. What started is
 * stopped again when a step fails.
 */
export async function startConsole(options: ConsoleOptions = {}): Promise<ConsoleSession> {
  const started: Partial<ConsoleSession> = {};
  try {
    const server = (started.server = await startServer());
    await setupThroughApi(server.baseUrl);
    for (const user of options.register ?? []) await registerThroughApi(server.baseUrl, user);
    const browser = (started.browser = await launchBrowser());
    const watched = (started.watched = await WatchedPage.open(browser, server.baseUrl));
    const signInAs = options.signInAs ?? ROOT_USER;
    if (signInAs) await loginThroughUi(watched, signInAs.username, signInAs.password);
    return { server, browser, watched };
  } catch (error) {
    await started.watched?.close();
    await started.browser?.close();
    await started.server?.stop();
    throw error;
  }
}

/** Ends a test file's browser session: no console errors allowed, then page, browser and server closed. */
export async function closeSession(session: { watched?: WatchedPage; browser?: Browser; server?: TestServer }) {
  session.watched?.expectNoConsoleErrors();
  await session.watched?.close();
  await session.browser?.close();
  await session.server?.stop();
}
