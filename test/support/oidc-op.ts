import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface TestOpenIdProvider {
  /** The issuer; discovery is at `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  stop(): Promise<void>;
}

/** Starts the real OpenID provider of oidc-op-server.mjs on a loopback port for one client. */
export async function startOpenIdProvider(client: { clientId: string; clientSecret: string; redirectUris: string[] }): Promise<TestOpenIdProvider> {
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'oidc-op-server.mjs')], {
    env: { ...process.env, OP_CLIENT_ID: client.clientId, OP_CLIENT_SECRET: client.clientSecret, OP_REDIRECT_URIS: client.redirectUris.join(' ') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`OpenID provider exited (${code}): ${errors}`)));
  });
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/**
 * Plays the browser at the provider: follows the authorization redirects, signs in as
 * `account` on the login page, and returns the URL the provider sends back to the client.
 */
export async function signInAtProvider(authorizationUrl: string, account: string, redirectPrefix: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '), ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair] = setCookie.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.href.startsWith(redirectPrefix)) return url;
      method = 'GET';
      body = undefined;
      continue;
    }
    if (response.status === 200 && url.pathname.startsWith('/interaction/')) {
      url = new URL(`${url.pathname}/login`, url);
      method = 'POST';
      body = new URLSearchParams({ login: account }).toString();
      continue;
    }
    throw new Error(`unexpected answer ${response.status} from ${url.href}: ${await response.text()}`);
  }
  throw new Error('too many redirects at the OpenID provider');
}
