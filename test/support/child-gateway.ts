import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** The real entry point (src/main.ts) in a child process, as Docker runs it. */
export function startGateway(env: Record<string, string>): Promise<{ child: ChildProcess; baseUrl: string; output: () => string }> {
  const projectRoot = path.join(__dirname, '..', '..');
  const child = spawn(process.execPath, ['-r', path.join(__dirname, 'swc-register.js'), path.join(projectRoot, 'src', 'main.ts')], {
    cwd: projectRoot,
    // PORT 0 (any free port) unless the caller names one (a restart behind a load balancer keeps its port).
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match) resolve({ child, baseUrl: `http://127.0.0.1:${match[1]}`, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code} before listening:\n${output}`)));
  });
}

/** One console API call; throws with the server's message unless it succeeded. */
export async function call(baseUrl: string, method: string, route: string, body?: unknown, session?: { cookie: string; id: number }): Promise<{ data: unknown; cookie: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session) Object.assign(headers, { cookie: session.cookie, 'new-api-user': String(session.id) });
  const response = await fetch(baseUrl + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const envelope = (await response.json()) as { success: boolean; message: string; data: unknown };
  if (!envelope.success) throw new Error(`${method} ${route}: ${envelope.message}`);
  return { data: envelope.data, cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] };
}


const ROOT = { username: 'root', password: 'root-pass-1' };

/**
 * A fresh child gateway made ready to relay `model` to a mock upstream, through its API:
 * setup, root signed in, private networks allowed (the mock is on loopback), the model
 * priced, one channel, one unlimited token.
 */
export async function prepareRelay(baseUrl: string, upstreamUrl: string, model: string): Promise<{ root: { cookie: string; id: number }; apiKey: string }> {
  await call(baseUrl, 'POST', '/api/setup', { ...ROOT, confirmPassword: ROOT.password });
  const signIn = await call(baseUrl, 'POST', '/api/user/login', ROOT);
  const root = { cookie: signIn.cookie, id: (signIn.data as { id: number }).id };
  await call(baseUrl, 'PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' }, root);
  await call(baseUrl, 'PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [model]: 1 }) }, root);
  await call(baseUrl, 'POST', '/api/channel/', { name: model, type: 1, key: `sk-${model}`, base_url: upstreamUrl, models: model }, root);
  const tokens = (await call(baseUrl, 'POST', '/api/token/', { name: model, remain_quota: 0, unlimited_quota: true, expired_time: -1 }, root)).data as Array<{ key: string }>;
  return { root, apiKey: tokens[0].key };
}
