import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { WEBHOOK_SIGNATURE_HEADER } from '../src/modules/notices/quota-alerts.service';
import { OutboundGuardService } from '../src/modules/outbound/outbound-guard.service';
import { OutboundHttpService } from '../src/modules/outbound/outbound-http.service';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { MockUpstream } from './support/mock-upstream';
import { openaiClient, RelaySeed } from './support/mock-upstream-seed';
import { startSmtpInbox, SmtpInbox } from './support/smtp-inbox';
import { startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

/** Each call costs 19,000 quota (12 + 7 tokens at ratio 1000); $2.00 at 500,000 per dollar. */
const THRESHOLD = 1_000_000;
const START_QUOTA = THRESHOLD + 20_000;
const WEBHOOK_SECRET = 'hook-secret-123';

interface ReceivedHook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
}

/** A real https server on loopback with a throwaway self-signed certificate; it answers 307 to `redirectTo` when set. */
async function startHookServer(dir: string): Promise<{ url: string; hooks: ReceivedHook[]; redirectTo: string; stop(): Promise<void> }> {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  // Made once per directory: the app under test trusts the first one.
  if (!existsSync(cert)) execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const hooks: ReceivedHook[] = [];
  const state = { redirectTo: '' };
  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hooks.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      if (state.redirectTo) res.writeHead(307, { location: state.redirectTo }).end();
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hooks,
    set redirectTo(target: string) {
      state.redirectTo = target;
    },
    get redirectTo() {
      return state.redirectTo;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}


describe('quota alerts: once per 2 hours, by email or signed webhook, off the relay path', () => {
  let app: TestApp;
  let upstream: MockUpstream;
  let seed: RelaySeed;
  let inbox: SmtpInbox;
  let hookServer: Awaited<ReturnType<typeof startHookServer>>;
  let certDir: string;
  let alice: Session;
  let bob: Session;

  const chat = (client: OpenAI) => client.chat.completions.create({ model: 'alert-model', messages: [{ role: 'user', content: 'hi' }] });
  const twoCalls = async (client: OpenAI) => {
    await chat(client);
    await seed.flush();
    await chat(client);
    await seed.flush();
  };

  /** An app that mails through the inbox and serves alert-model from the mock upstream. */
  const alertingApp = async (): Promise<{ app: TestApp; seed: RelaySeed }> => {
    const started = await startTestApp();
    const startedSeed = new RelaySeed(started);
    await setupRoot(started);
    const settings = { SMTPServer: '127.0.0.1', SMTPPort: inbox.port, SMTPAccount: 'mailer@example.test', SMTPToken: 'smtp-token', SMTPFrom: 'noreply@example.test', ModelRatio: JSON.stringify({ 'alert-model': 1000 }) };
    for (const [key, value] of Object.entries(settings)) await startedSeed.setOption(key, value);
    await startedSeed.createChannel({ base_url: upstream.url, models: 'alert-model' });
    return { app: started, seed: startedSeed };
  };

  beforeAll(async () => {
    certDir = mkdtempSync(path.join(tmpdir(), 'gw-hook-'));
    hookServer = await startHookServer(certDir);
    inbox = await startSmtpInbox({ user: 'mailer@example.test', pass: 'smtp-token' });
    upstream = await new MockUpstream().start();
    ({ app, seed } = await alertingApp());
    // The webhook server's certificate is self-signed: the gateway's outbound client alone trusts it.
    app.app.get(OutboundHttpService).trustForTests({ ca: readFileSync(path.join(certDir, 'cert.pem')) });
    alice = await registerUser(app, 'alice');
    bob = await registerUser(app, 'bob');
    // The webhook server listens on loopback, which the outbound guard refuses until root allows private networks.
    await seed.setOption('fetch_setting.allow_private_ip', true);
  });
  afterAll(async () => {
    await app.stop();
    await upstream.stop();
    await inbox.stop();
    await hookServer.stop();
    rmSync(certDir, { recursive: true, force: true });
  });

  it('emails a user once when a settlement takes them below their threshold, not again within 2 hours', async () => {
    const saved = await alice.put('/api/user/setting', { notify_type: 'email', quota_warning_threshold: THRESHOLD, notification_email: 'alice@example.test' });
    expect(saved.body.success).toBe(true);
    await seed.setUserQuota(alice.id, START_QUOTA);
    const client = openaiClient(app, (await seed.createToken(alice.id, { unlimited_quota: true })).apiKey);
    const mail = inbox.next('alice@example.test');
    await twoCalls(client);
    const received = await mail;
    expect(received.subject).toBe('您的额度即将用尽');
    expect(received.text).toBe('您的额度余额为 $1.96，已低于预警阈值 $2.00，请及时充值。');
    await chat(client);
    await seed.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inbox.mails.filter((m) => m.to.includes('alice@example.test'))).toHaveLength(1);
  });

  it('posts a webhook with the bearer secret and an HMAC-SHA256 signature of the body, once', async () => {
    const saved = await bob.put('/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: THRESHOLD, webhook_url: hookServer.url, webhook_secret: WEBHOOK_SECRET });
    expect(saved.body.success).toBe(true);
    await seed.setUserQuota(bob.id, START_QUOTA);
    const client = openaiClient(app, (await seed.createToken(bob.id, { unlimited_quota: true })).apiKey);
    await twoCalls(client);
    await until(() => hookServer.hooks.length > 0);
    expect(hookServer.hooks).toHaveLength(1);
    const [hook] = hookServer.hooks;
    expect(hook.headers.authorization).toBe(`Bearer ${WEBHOOK_SECRET}`);
    expect(hook.headers[WEBHOOK_SIGNATURE_HEADER]).toBe(createHmac('sha256', WEBHOOK_SECRET).update(hook.raw).digest('hex'));
    expect(JSON.parse(hook.raw)).toMatchObject({ type: 'quota_exceed', values: ['$1.96', '$2.00'] });
    await chat(client);
    await seed.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hookServer.hooks).toHaveLength(1);
  });

  it('still warns for a settlement written as the gateway shuts down: the check reads the database before it closes', async () => {
    const stopping = await alertingApp();
    const frank = await registerUser(stopping.app, 'frank');
    await frank.put('/api/user/setting', { notify_type: 'email', quota_warning_threshold: THRESHOLD, notification_email: 'frank@example.test' });
    // One call (19,000) takes frank below the threshold; its settlement is still queued when the gateway stops.
    await stopping.seed.setUserQuota(frank.id, THRESHOLD + 10_000);
    const mail = inbox.next('frank@example.test');
    await chat(openaiClient(stopping.app, (await stopping.seed.createToken(frank.id, { unlimited_quota: true })).apiKey));
    await stopping.app.stop();
    expect((await mail).text).toBe('您的额度余额为 $1.98，已低于预警阈值 $2.00，请及时充值。');
  });

  it('keeps serving while a webhook never answers', async () => {
    const silent = https.createServer({ key: readFileSync(path.join(certDir, 'key.pem')), cert: readFileSync(path.join(certDir, 'cert.pem')) }, () => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const carol = await registerUser(app, 'carol');
    await carol.put('/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: THRESHOLD, webhook_url: `https://127.0.0.1:${(silent.address() as AddressInfo).port}/hook` });
    await seed.setUserQuota(carol.id, START_QUOTA);
    const client = openaiClient(app, (await seed.createToken(carol.id, { unlimited_quota: true })).apiKey);
    await twoCalls(client);
    const answer = await chat(client);
    expect(answer.choices[0].message.content).toBeTruthy();
    silent.closeAllConnections();
    silent.close();
  });

  it('sends webhooks through the outbound guard, on every redirect hop', async () => {
    // A name that resolves to a forbidden address ("this network") is refused at connect time: no connection reaches the port.
    let connections = 0;
    const trap = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    const guard = app.app.get(OutboundGuardService);
    const systemResolver = guard.resolver;
    guard.resolver = async (host) => (host === 'hooks.example.test' ? [{ address: '0.0.0.0', family: 4 }] : systemResolver(host));
    try {
      const dave = await registerUser(app, 'dave');
      await dave.put('/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: THRESHOLD, webhook_url: `https://hooks.example.test:${(trap.address() as AddressInfo).port}/hook` });
      await seed.setUserQuota(dave.id, START_QUOTA);
      await twoCalls(openaiClient(app, (await seed.createToken(dave.id, { unlimited_quota: true })).apiKey));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(connections).toBe(0);
    } finally {
      guard.resolver = systemResolver;
      trap.close();
    }

    // A 307 to another host: the hop is judged by the guard again and followed, without the bearer secret.
    const redirecting = await startHookServer(certDir);
    redirecting.redirectTo = hookServer.url.replace('/hook', '/redirected');
    const erin = await registerUser(app, 'erin');
    await erin.put('/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: THRESHOLD, webhook_url: redirecting.url, webhook_secret: 'erin-secret' });
    await seed.setUserQuota(erin.id, START_QUOTA);
    await twoCalls(openaiClient(app, (await seed.createToken(erin.id, { unlimited_quota: true })).apiKey));
    await until(() => hookServer.hooks.some((hook) => hook.path === '/redirected'));
    expect(redirecting.hooks).toHaveLength(1);
    expect(redirecting.hooks[0].headers.authorization).toBe('Bearer erin-secret');
    const redirected = hookServer.hooks.filter((hook) => hook.path === '/redirected');
    expect(redirected).toHaveLength(1);
    expect(redirected[0].headers.authorization).toBeUndefined();
    await redirecting.stop();
  });
});
