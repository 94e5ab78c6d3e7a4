import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadAppConfig } from '../../config/app-config';
import { JsonLogger, secretScrubber } from './app-logger';
import { withRequestId } from './request-context';

describe('secretScrubber', () => {
  const scrub = secretScrubber(['the-session-secret-value']);

  it('takes out known secrets and key-shaped values from free text', () => {
    expect(scrub('Incorrect API key provided: sk-abcdef0123456789')).toBe('Incorrect API key provided: sk-[redacted]');
    expect(scrub('authorization: Bearer eyJhbGciOi.payload.sig, next')).toBe('authorization: Bearer [redacted], next');
    expect(scrub('GET /v1beta/models/x?key=AIzaSyD-secret&alt=sse')).toBe('GET /v1beta/models/x?key=[redacted]&alt=sse');
    expect(scrub('mysql://gateway:hunter22@db:3306/gw')).toBe('mysql://gateway:[redacted]@db:3306/gw');
    expect(scrub('signed with the-session-secret-value')).toBe('signed with [redacted]');
    expect(scrub('channel 3 disabled: status 401')).toBe('channel 3 disabled: status 401');
  });
});

describe('JsonLogger', () => {
  it('writes one object per line with its level, context and request id, and redacts secret fields by path', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const config = loadAppConfig({ SESSION_SECRET: 'spec-session-secret', SQLITE_PATH: path.join(tmpdir(), 'gw-logger-spec', 'db.sqlite'), LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
    const logger = new JsonLogger(config, ['SMTPToken', 'oidc.client_secret'], sink);
    withRequestId('req-1', () => logger.warn('upstream said sk-abcdefghijklmnop', 'RelayDispatchStage'));
    logger.log({ event: 'settings', SMTPToken: 'smtp-pass', headers: { authorization: 'Bearer x', cookie: 'session=abc' }, channel: { key: 'sk-channel' }, settings: { 'oidc.client_secret': 'oidc-pass' } }, 'Options');
    logger.debug('not written at info');
    logger.error('failed', 'Error: boom\n    at somewhere (file.ts:1:1)', 'ApiExceptionFilter');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed).toHaveLength(3);
    expect(parsed[0]).toMatchObject({ level: 'warn', context: 'RelayDispatchStage', request_id: 'req-1', msg: 'upstream said sk-[redacted]' });
    expect(parsed[1]).toMatchObject({ level: 'info', context: 'Options', SMTPToken: '[redacted]', headers: { authorization: '[redacted]', cookie: '[redacted]' }, channel: { key: '[redacted]' }, settings: { 'oidc.client_secret': '[redacted]' } });
    expect(parsed[1].request_id).toBeUndefined();
    expect(parsed[2]).toMatchObject({ level: 'error', context: 'ApiExceptionFilter', msg: 'failed', stack: expect.stringContaining('at somewhere') });
    for (const secret of ['smtp-pass', 'sk-channel', 'oidc-pass', 'session=abc', 'abcdefghijklmnop']) expect(lines.join('\n')).not.toContain(secret);
  });
});
