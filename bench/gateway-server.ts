import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGatewayApp } from '../src/app.factory';
import { loadAppConfig } from '../src/config/app-config';
import { answerStatsRequests, type ReadyMessage } from './process-stats';

/** The gateway under test, on a fresh database (SQL_DSN when the bench gives one, else SQLite), set up through its management API. */
async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-bench-'));
  // METRICS_ENABLED passes through, so the same benchmark measures the relay with metrics on and off.
  const database = process.env.SQL_DSN ? { SQL_DSN: process.env.SQL_DSN } : { SQLITE_PATH: path.join(dir, 'bench.db') };
  const config = loadAppConfig({ ...database, DATA_DIR: dir, SESSION_SECRET: 'bench-secret', WEB_DIST_DIR: path.join(dir, 'no-web'), METRICS_ENABLED: process.env.METRICS_ENABLED ?? '' });
  const gateway = await createGatewayApp(config, ['error']);
  await new Promise<void>((resolve) => gateway.server.listen(0, '127.0.0.1', () => resolve()));
  const port = (gateway.server.address() as AddressInfo).port;

  const base = `http://127.0.0.1:${port}`;
  const call = async (path: string, method: string, body: unknown, cookie = '', userId = ''): Promise<{ data: unknown; cookie: string }> => {
    const response = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json', cookie, 'new-api-user': userId },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await response.json()) as { success: boolean; message: string; data: unknown };
    if (!envelope.success) throw new Error(`${method} ${path}: ${envelope.message}`);
    return { data: envelope.data, cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] };
  };

  // Everything through the real management API, as an operator would set it up.
  await call('/api/setup', 'POST', { username: 'root', password: 'bench-pass-1', confirmPassword: 'bench-pass-1' });
  const login = await call('/api/user/login', 'POST', { username: 'root', password: 'bench-pass-1' });
  const root = String((login.data as { id: number }).id);
  const as = (path: string, method: string, body?: unknown) => call(path, method, body, login.cookie, root);
  await as('/api/user/', 'PUT', { id: Number(root), quota: 1e15 });
  // The mock upstream listens on loopback, which the outbound guard refuses unless root allows it.
  await as('/api/option/', 'PUT', { key: 'fetch_setting.allow_private_ip', value: 'true' });
  await as('/api/option/', 'PUT', { key: 'ModelRatio', value: JSON.stringify({ 'bench-model': 1, 'bench-claude': 1, 'bench-chat-only': 1, 'bench-fallback': 1 }) });
  // The fallback case: a model with a fallback chain configured, served by its first channel, so the chain is never walked.
  await as('/api/option/', 'PUT', { key: 'ModelFallbacks', value: JSON.stringify({ 'bench-fallback': ['bench-model'] }) });
  await as('/api/channel/', 'POST', { name: 'bench', type: 1, key: 'sk-bench-upstream', base_url: process.env.UPSTREAM_URL ?? '', models: 'bench-model,bench-fallback', group: 'default' });
  // The native case: OpenAI's format in, a Claude channel out, converted both ways.
  await as('/api/channel/', 'POST', { name: 'bench-claude', type: 14, key: 'sk-ant-bench-upstream', base_url: process.env.UPSTREAM_URL ?? '', models: 'bench-claude', group: 'default' });
  // The Responses case: a Responses client through a channel whose type serves Chat Completions only (DeepSeek's), converted both ways.
  await as('/api/channel/', 'POST', { name: 'bench-chat-only', type: 43, key: 'sk-bench-upstream', base_url: process.env.UPSTREAM_URL ?? '', models: 'bench-chat-only', group: 'default' });
  const tokens = (await as('/api/token/', 'POST', { name: 'bench', remain_quota: 1e15, expired_time: -1 })).data as Array<{ key: string }>;
  // The limited case: two budget windows and both limits, set far above what the bench spends, so every call passes them.
  const limited = (await as('/api/token/', 'POST', {
    name: 'bench-limited',
    remain_quota: 1e15,
    expired_time: -1,
    budget_windows: [{ period: 'day', quota: 1e14 }, { period: 'month', quota: 1e15 }],
    rpm_limit: 1_000_000_000,
    tpm_limit: 1_000_000_000,
  })).data as Array<{ key: string }>;
  // The cache-hit case: every call of this token at temperature 0 after the first is answered from the response cache.
  const cached = (await as('/api/token/', 'POST', { name: 'bench-cached', remain_quota: 1e15, expired_time: -1, response_cache: true })).data as Array<{ key: string }>;

  // The driver ends us with SIGTERM; leave no database behind in the temp folder.
  process.once('SIGTERM', () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  answerStatsRequests();
  const ready: ReadyMessage = { kind: 'ready', port, apiKey: tokens[0].key, limitedApiKey: limited[0].key, cachedApiKey: cached[0].key };
  process.send?.(ready);
}

void main();
