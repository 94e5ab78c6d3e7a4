import { RelayError, relayErrorBody } from './relay-error';

describe('relayErrorBody', () => {
  const quota = new RelayError('insufficient_quota', 'Not enough quota', 403);

  it("renders in the client's own format, with the request id in the message", () => {
    expect(JSON.parse(relayErrorBody('openai', quota, 'req-1'))).toEqual({ error: { message: 'Not enough quota (request id: req-1)', type: 'permission_error', param: null, code: 'insufficient_quota' } });
    expect(JSON.parse(relayErrorBody('claude', quota, 'req-1'))).toEqual({ type: 'error', error: { type: 'permission_error', message: 'Not enough quota (request id: req-1)' } });
    expect(JSON.parse(relayErrorBody('gemini', quota, 'req-1'))).toEqual({ error: { code: 403, message: 'Not enough quota (request id: req-1)', status: 'PERMISSION_DENIED' } });
  });

  it('maps server-side failures to each format’s generic type', () => {
    const down = new RelayError('channel:server_error', 'Upstream down', 502);
    expect(JSON.parse(relayErrorBody('openai', down, '')).error).toMatchObject({ type: 'upstream_error', code: 'upstream_server_error', message: 'Upstream down' });
    expect(JSON.parse(relayErrorBody('claude', down, '')).error.type).toBe('api_error');
    expect(JSON.parse(relayErrorBody('gemini', down, '')).error.status).toBe('INTERNAL');
  });
});
