import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { parseTrustProxy, TrustProxy } from '../common/http/client-ip';
import { parseRedisConnString } from '../common/redis/redis-topology';

export type DatabaseType = 'sqlite' | 'mysql' | 'postgres';

/** Where one database lives: `url` for MySQL and PostgreSQL, `sqlitePath` for SQLite. */
export interface DatabaseLocation {
  type: DatabaseType;
  sqlitePath: string;
  url: string;
}

/** Everything the process reads from its environment, validated once at boot. */
export interface AppConfig {
  port: number;
  version: string;
  startTime: number;
  dataDir: string;
  /** `url` is the server's (MySQL or PostgreSQL); SQLite uses `sqlitePath`. */
  database: DatabaseLocation;
  /**
   * LOG_SQL_DSN: a separate database for the usage logs and their rollups (quota_data), fed
   * from an outbox in the main database (LogOutboxService). Absent: they live in the main one.
   */
  logDatabase?: DatabaseLocation;
  redisUrl: string;
  /** Where the Stripe SDK sends its API calls; empty means Stripe itself (tests point it at a mock). */
  stripeApiUrl: string;
  sessionSecret: string;
  cryptoSecret: string;
  /** Requests per IP per window on login, register, password reset and verification. */
  criticalRateLimit: { max: number; windowSeconds: number };
  /** Requests per IP per window on the whole /api surface; 0 turns it off. */
  globalApiRateLimit: { max: number; windowSeconds: number };
  relay: { timeoutMs: number; streamingTimeoutMs: number; maxRequestBodyBytes: number; maxResponseBodyBytes: number };
  /** On SIGTERM/SIGINT, how long requests in flight (streams) may take to finish before they are cut. */
  shutdownGraceMs: number;
  /** How often (seconds) in-memory caches reload from the database, for several instances. */
  syncFrequencySeconds: number;
  /** Serve the built console from this folder, when it exists. */
  webDistDir: string;
  /** Our own reverse proxies (TRUST_PROXY): the client IP is the right-most address that is not one of them. */
  trustProxy: TrustProxy;
  /**
   * Where the third-party services live. Only tests point these elsewhere (at local mock
   * servers); they are environment variables so that no admin setting can redirect them.
   */
  externalServices: { turnstileSiteverifyUrl: string; githubOAuthUrl: string; githubApiUrl: string; linuxDoUrl: string };
  /** Only a master runs scheduled jobs; a slave shares the database and serves traffic only. */
  nodeType: 'master' | 'slave';
  /** Minutes between scheduled channel tests; 0 turns them off. */
  channelTestFrequencyMinutes: number;
  /** Minutes between scheduled balance updates; 0 turns them off. */
  channelUpdateFrequencyMinutes: number;
  /**
   * A release listing answering like GitHub's `releases/latest` ({tag_name, body}); the console's
   * update check reads it from the browser. Empty: the check is not offered.
   */
  releasesUrl: string;
  /** LOG_FORMAT (text for a terminal, json: one object per line) and LOG_LEVEL. */
  logging: { format: LogFormat; level: LogLevelName };
  /** Prometheus metrics at GET /metrics (METRICS_ENABLED); `token`, when set, is the Bearer token a scraper must send. */
  metrics: { enabled: boolean; token: string };
  /**
   * OpenTelemetry traces, on when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
   * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), exported over `protocol`; the SDK reads the other
   * OTEL_* variables itself.
   */
  tracing: { enabled: boolean; protocol: OtlpProtocol };
  /**
   * On SIGTERM/SIGINT, how long /readyz answers 503 while new connections are still accepted,
   * so a load balancer stops sending before the listener closes (SHUTDOWN_DELAY_SECONDS).
   */
  shutdownDelayMs: number;
}

export type LogFormat = 'text' | 'json';
/** The most verbose kind of line written: each level includes those before it. */
export const LOG_LEVEL_NAMES = ['error', 'warn', 'info', 'debug', 'verbose'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

export const APP_CONFIG = Symbol('APP_CONFIG');

class ConfigError extends Error {}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

/**
 * Accepts `mysql://user:pass@host:3306/db`, the Go-driver form `user:pass@tcp(host:3306)/db?parseTime=true`
 * that operators of other gateways already use, and `postgres://` (or `postgresql://`) URLs.
 */
export function parseSqlDsn(dsn: string): { type: DatabaseType; url: string } {
  const trimmed = dsn.trim();
  if (/^mysql:\/\//i.test(trimmed)) return { type: 'mysql', url: trimmed };
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return { type: 'postgres', url: trimmed };
  const goStyle = /^([^:@]*)(?::([^@]*))?@tcp\(([^)]+)\)\/([^?]*)/.exec(trimmed);
  if (goStyle) {
    const [, user, password, hostPort, database] = goStyle;
    const auth = password !== undefined ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}` : encodeURIComponent(user);
    return { type: 'mysql', url: `mysql://${auth}@${hostPort}/${database}` };
  }
  throw new ConfigError('SQL_DSN must look like mysql://user:pass@host:3306/db, user:pass@tcp(host:3306)/db or postgres://user:pass@host:5432/db');
}

/**
 * LOG_SQL_DSN: a MySQL or PostgreSQL DSN as SQL_DSN takes them, or a SQLite file (a path, or
 * `sqlite:` and a path). It must name another database than the main one: its log tables
 * would otherwise be written twice over (rows through the outbox, and the main ones).
 */
function logDatabaseFromEnv(env: NodeJS.ProcessEnv, main: DatabaseLocation): DatabaseLocation | undefined {
  const dsn = env.LOG_SQL_DSN?.trim() ?? '';
  if (!dsn) return undefined;
  let location: DatabaseLocation;
  if (/^sqlite:/i.test(dsn) || !/:\/\/|@tcp\(/.test(dsn)) {
    location = { type: 'sqlite', url: '', sqlitePath: path.resolve(dsn.replace(/^sqlite:(\/\/)?/i, '')) };
    mkdirSync(path.dirname(location.sqlitePath), { recursive: true });
  } else {
    try {
      location = { ...parseSqlDsn(dsn), sqlitePath: '' };
    } catch {
      throw new ConfigError('LOG_SQL_DSN must look like mysql://user:pass@host:3306/db, postgres://user:pass@host:5432/db or a SQLite file path');
    }
  }
  const sameAsMain = location.type === main.type && (location.type === 'sqlite' ? location.sqlitePath === main.sqlitePath : location.url === main.url);
  if (sameAsMain) throw new ConfigError('LOG_SQL_DSN names the main database: leave it unset to keep the logs there');
  return location;
}

/**
 * Sessions and encrypted channel keys must survive a restart, so a generated secret is
 * kept in the data folder, readable by the owner only.
 */
function loadOrCreateSecret(dataDir: string, logger: Logger): string {
  const file = path.join(dataDir, '.session_secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  logger.warn(`SESSION_SECRET is not set: generated one and saved it to ${file}. Set SESSION_SECRET (and CRYPTO_SECRET) explicitly when running several instances.`);
  return secret;
}

/** The folder holding our package.json, whether we run from src/ (tests) or dist/src/. */
export function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) || !existsSync(path.join(dir, 'nest-cli.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

/** Minutes; decimals are allowed so a test can run a job every few seconds. */
function minutesFromEnv(env: NodeJS.ProcessEnv, name: string): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return 0;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(`${name} must be a number of minutes >= 0, got "${raw}"`);
  return value;
}

/** REDIS_CONN_STRING, checked at boot so a mistyped form stops the start with a clear message. */
function redisConnStringFromEnv(env: NodeJS.ProcessEnv): string {
  const connString = env.REDIS_CONN_STRING?.trim() ?? '';
  if (!connString) return '';
  try {
    parseRedisConnString(connString);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return connString;
}

function nodeTypeFromEnv(env: NodeJS.ProcessEnv): 'master' | 'slave' {
  const raw = env.NODE_TYPE?.trim().toLowerCase() || 'master';
  if (raw !== 'master' && raw !== 'slave') throw new ConfigError(`NODE_TYPE must be master or slave, got "${env.NODE_TYPE}"`);
  return raw;
}

function readVersion(): string {
  const file = path.join(projectRoot(), 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : '0.0.0';
}

function booleanFromEnv(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase() ?? '';
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function loggingFromEnv(env: NodeJS.ProcessEnv): AppConfig['logging'] {
  const format = env.LOG_FORMAT?.trim().toLowerCase() || 'text';
  if (format !== 'text' && format !== 'json') throw new ConfigError(`LOG_FORMAT must be text or json, got "${env.LOG_FORMAT}"`);
  const level = env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if (!(LOG_LEVEL_NAMES as readonly string[]).includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVEL_NAMES.join(', ')}, got "${env.LOG_LEVEL}"`);
  return { format, level: level as LogLevelName };
}

/** The OTLP protocols the SDK's trace exporters speak; the first is the default. */
const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** Traces are on with an OTLP endpoint, unless OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none turn them off. */
function tracingFromEnv(env: NodeJS.ProcessEnv): AppConfig['tracing'] {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const switchedOff = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none';
  // The traces' own variable wins over the shared one, as in the SDK.
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolVariable]?.trim() || OTLP_PROTOCOLS[0];
  if (!endpoint || switchedOff) return { enabled: false, protocol: OTLP_PROTOCOLS[0] };
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol)) throw new ConfigError(`${protocolVariable} must be one of ${OTLP_PROTOCOLS.join(', ')}, got "${protocol}"`);
  return { enabled: true, protocol: protocol as OtlpProtocol };
}

function trustProxyFromEnv(raw: string | undefined): TrustProxy {
  const trust = parseTrustProxy(raw);
  if (!trust) throw new ConfigError(`TRUST_PROXY must be true, false, a hop count or a comma-separated list of proxy IPs/CIDRs, got "${raw}"`);
  return trust;
}

export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const logger = new Logger('Config');
  const sqlitePath = path.resolve(env.SQLITE_PATH?.trim() || path.join('data', 'one-api.db'));
  const dataDir = path.resolve(env.DATA_DIR?.trim() || path.dirname(sqlitePath));
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(path.dirname(sqlitePath), { recursive: true });

  const sqlDsn = env.SQL_DSN?.trim() ?? '';
  const database: DatabaseLocation = sqlDsn ? { ...parseSqlDsn(sqlDsn), sqlitePath } : { type: 'sqlite', url: '', sqlitePath };
  const logDatabase = logDatabaseFromEnv(env, database);

  const sessionSecret = env.SESSION_SECRET?.trim() || env.CRYPTO_SECRET?.trim() || loadOrCreateSecret(dataDir, logger);
  const cryptoSecret = env.CRYPTO_SECRET?.trim() || sessionSecret;

  return {
    port: intFromEnv(env, 'PORT', 3000, 0),
    version: env.APP_VERSION?.trim() || readVersion(),
    startTime: Math.floor(Date.now() / 1000),
    dataDir,
    database,
    logDatabase,
    redisUrl: redisConnStringFromEnv(env),
    stripeApiUrl: env.STRIPE_API_URL?.trim() ?? '',
    releasesUrl: env.RELEASES_URL?.trim() ?? '',
    sessionSecret,
    cryptoSecret,
    criticalRateLimit: {
      max: intFromEnv(env, 'CRITICAL_RATE_LIMIT', 20, 1),
      windowSeconds: intFromEnv(env, 'CRITICAL_RATE_LIMIT_DURATION', 1200, 1),
    },
    globalApiRateLimit: {
      max: intFromEnv(env, 'GLOBAL_API_RATE_LIMIT', 0, 0),
      windowSeconds: intFromEnv(env, 'GLOBAL_API_RATE_LIMIT_DURATION', 180, 1),
    },
    relay: {
      timeoutMs: intFromEnv(env, 'RELAY_TIMEOUT', 300, 1) * 1000,
      streamingTimeoutMs: intFromEnv(env, 'STREAMING_TIMEOUT', 120, 1) * 1000,
      maxRequestBodyBytes: intFromEnv(env, 'MAX_REQUEST_BODY_MB', 32, 1) * 1024 * 1024,
      maxResponseBodyBytes: intFromEnv(env, 'MAX_RESPONSE_BODY_MB', 64, 1) * 1024 * 1024,
    },
    syncFrequencySeconds: intFromEnv(env, 'SYNC_FREQUENCY', 60, 1),
    shutdownGraceMs: intFromEnv(env, 'SHUTDOWN_GRACE_SECONDS', 25, 0) * 1000,
    shutdownDelayMs: intFromEnv(env, 'SHUTDOWN_DELAY_SECONDS', 0, 0) * 1000,
    logging: loggingFromEnv(env),
    metrics: { enabled: booleanFromEnv(env, 'METRICS_ENABLED'), token: env.METRICS_TOKEN?.trim() ?? '' },
    tracing: tracingFromEnv(env),
    webDistDir: path.resolve(env.WEB_DIST_DIR?.trim() || path.join(projectRoot(), 'web', 'dist')),
    trustProxy: trustProxyFromEnv(env.TRUST_PROXY),
    externalServices: {
      turnstileSiteverifyUrl: env.TURNSTILE_SITEVERIFY_URL?.trim() || 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      githubOAuthUrl: (env.GITHUB_OAUTH_URL?.trim() || 'https://github.com').replace(/\/+$/, ''),
      githubApiUrl: (env.GITHUB_API_URL?.trim() || 'https://api.github.com').replace(/\/+$/, ''),
      linuxDoUrl: (env.LINUXDO_URL?.trim() || 'https://connect.linux.do').replace(/\/+$/, ''),
    },
    nodeType: nodeTypeFromEnv(env),
    channelTestFrequencyMinutes: minutesFromEnv(env, 'CHANNEL_TEST_FREQUENCY'),
    channelUpdateFrequencyMinutes: minutesFromEnv(env, 'CHANNEL_UPDATE_FREQUENCY'),
  };
}

export { ConfigError };
