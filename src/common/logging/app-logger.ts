import { ConsoleLogger, LoggerService, LogLevel } from '@nestjs/common';
import pino, { type Logger as Pino } from 'pino';
import type { AppConfig, LogLevelName } from '../../config/app-config';
import { currentRequestId, keepRequestContext } from './request-context';
import { redisConnStringPasswords } from '../redis/redis-topology';

/** Nest's start-up chatter (one line per module and route) buries what operators need to see. */
const QUIET_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's levels that LOG_LEVEL turns on, each including the ones before it. */
const NEST_LEVELS: Record<LogLevelName, LogLevel[]> = {
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  verbose: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/** The text format, for a terminal: Nest's own, without its start-up chatter. */
export class AppLogger extends ConsoleLogger {
  override log(message: unknown, context?: string): void {
    if (context && QUIET_CONTEXTS.has(context)) return;
    super.log(message, context);
  }
}

/** Field names whose values never reach the log, wherever they sit in a logged object (up to three levels down). */
const SECRET_FIELDS = [
  'password', 'password2', 'new_password', 'original_password', 'key', 'keys', 'api_key', 'apiKey', 'secret', 'token', 'access_token',
  'accessToken', 'refresh_token', 'client_secret', 'session_secret', 'sessionSecret', 'crypto_secret', 'cryptoSecret', 'cookie',
  'set-cookie', 'authorization', 'x-api-key', 'x-goog-api-key', 'webhook_secret',
];

/** pino's redaction paths for the secret fields, and for the settings marked secret when an object carries them by key. */
export function redactionPaths(secretSettings: readonly string[]): string[] {
  const names = [...SECRET_FIELDS, ...secretSettings].map((name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`));
  const at = (prefix: string, name: string) => (name.startsWith('[') ? `${prefix}${name}` : `${prefix}.${name}`);
  return names.flatMap((name) => [name, at('*', name), at('*.*', name), at('*.*.*', name)]);
}

/** Values that look like credentials inside free text: API keys, Bearer tokens, secrets passed in a query string. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/\b(sk|pk|rk|sess)-[A-Za-z0-9_-]{6,}/g, '$1-[redacted]'],
  [/\b(Bearer|Basic)\s+[^\s"',]+/gi, '$1 [redacted]'],
  [/([?&](?:key|api_key|token|access_token|secret|password)=)[^&\s"']+/gi, '$1[redacted]'],
  [/(\/\/[^/\s:@]+:)[^@\s/]+@/g, '$1[redacted]@'],
];

/**
 * Takes credentials out of a log message: the process's own secrets by value (SESSION_SECRET,
 * CRYPTO_SECRET, METRICS_TOKEN, the database and Redis passwords) and anything shaped like a
 * key or token (an upstream's error text may quote the channel key back).
 */
export function secretScrubber(knownSecrets: readonly string[]): (text: string) => string {
  const known = knownSecrets.filter((secret) => secret.length >= 6);
  return (text) => {
    let scrubbed = text;
    for (const secret of known) if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join('[redacted]');
    for (const [pattern, replacement] of SECRET_PATTERNS) scrubbed = scrubbed.replace(pattern, replacement);
    return scrubbed;
  };
}

/** The passwords inside connection URLs (SQL_DSN; REDIS_CONN_STRING has its own multi-host forms). */
function urlPasswords(...urls: string[]): string[] {
  return urls.flatMap((url) => {
    try {
      return url ? [decodeURIComponent(new URL(url).password)].filter(Boolean) : [];
    } catch {
      return [];
    }
  });
}

const PINO_LEVELS: Record<LogLevelName, pino.Level> = { error: 'error', warn: 'warn', info: 'info', debug: 'debug', verbose: 'trace' };
const STACK_LINE = /\n\s+at /;

/**
 * LOG_FORMAT=json: one JSON object per line through pino, with `level`, `time`, `context`,
 * `msg` and, for lines written while serving a request, its `request_id`. Objects logged are
 * redacted by field name; messages are scrubbed of credentials.
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Pino;
  private readonly scrub: (text: string) => string;

  constructor(config: AppConfig, secretSettings: readonly string[], destination: pino.DestinationStream = pino.destination({ dest: 1, sync: true })) {
    keepRequestContext();
    this.scrub = secretScrubber([config.sessionSecret, config.cryptoSecret, config.metrics.token, ...urlPasswords(config.database.url), ...redisConnStringPasswords(config.redisUrl)]);
    this.pino = pino(
      {
        level: PINO_LEVELS[config.logging.level],
        messageKey: 'msg',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        redact: { paths: redactionPaths(secretSettings), censor: '[redacted]' },
        mixin: () => {
          const requestId = currentRequestId();
          return requestId ? { request_id: requestId } : {};
        },
      },
      destination,
    );
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest's calls: (message, context?) or, for errors, (message, stack?, context?). */
  private write(level: pino.Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' && !STACK_LINE.test(params[params.length - 1] as string) ? (params.pop() as string) : undefined;
    if (context && level === 'info' && QUIET_CONTEXTS.has(context)) return;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    const stack = params.find((param): param is string => typeof param === 'string');
    if (stack) fields.stack = this.scrub(stack);
    if (message instanceof Error) {
      fields.err = { type: message.name, message: this.scrub(message.message), stack: this.scrub(message.stack ?? '') };
      this.pino[level](fields, this.scrub(message.message));
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...message });
    } else {
      this.pino[level](fields, this.scrub(String(message)));
    }
  }
}

/**
 * The process's logger: LOG_FORMAT picks text or JSON, LOG_LEVEL the level. `textLevels`
 * overrides the text format's levels (the tests keep theirs quiet).
 */
export function createAppLogger(config: AppConfig, secretSettings: readonly string[], textLevels?: LogLevel[]): LoggerService {
  if (config.logging.format === 'json') return new JsonLogger(config, secretSettings);
  const logger = new AppLogger();
  logger.setLogLevels(textLevels ?? NEST_LEVELS[config.logging.level]);
  return logger;
}
