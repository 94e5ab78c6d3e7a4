import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { lookup } from 'node:dns';
import { WebSocketServer, type WebSocket } from 'ws';
import type { OptionsService } from '../../../options/options.service';
import { OutboundRefusedError } from '../../../outbound/address-policy';
import { OutboundGuardService } from '../../../outbound/outbound-guard.service';
import type { RelayChannel } from '../../caches/relay-channel';
import { UpstreamAbort } from '../../upstream-client.service';
import type { UpstreamTarget } from '../adaptor';
import { exchangeSparkFrames, signedSparkUrl } from './spark-socket';
import { XunfeiAdaptor } from './xunfei.adaptor';

const CREDENTIALS = { apiKey: 'key-0001', apiSecret: 'secret-0001' };
const FRAME = (status: number, content: string, usage?: object): string =>
  JSON.stringify({ header: { code: 0, message: 'Success', sid: 'cht-1', status }, payload: { choices: { status, seq: status, text: [{ content, role: 'assistant', index: 0 }] }, ...(usage ? { usage: { text: usage } } : {}) } });

describe('Spark URL signing', () => {
  it('signs host, date and request line with the API secret, as query parameters over ws(s)', () => {
    const now = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    const signed = signedSparkUrl(new URL('https://spark-api.xf-yun.com/v3.5/chat'), CREDENTIALS, now);
    expect(`${signed.protocol}//${signed.host}${signed.pathname}`).toBe('wss://spark-api.xf-yun.com/v3.5/chat');
    expect(signed.searchParams.get('date')).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect(signed.searchParams.get('host')).toBe('spark-api.xf-yun.com');
    const signature = createHmac('sha256', 'secret-0001').update('host: spark-api.xf-yun.com\ndate: Fri, 02 Jan 2026 03:04:05 GMT\nGET /v3.5/chat HTTP/1.1').digest('base64');
    expect(Buffer.from(signed.searchParams.get('authorization')!, 'base64').toString()).toBe(`api_key="key-0001", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`);
    expect(signed.href).not.toContain('secret-0001');
    expect(signedSparkUrl(new URL('http://127.0.0.1:8080/v1.1/chat'), CREDENTIALS, now).protocol).toBe('ws:');
  });
});

describe('the Spark WebSocket exchange', () => {
  let server: WebSocketServer;
  let url: URL;
  let answer: (socket: WebSocket, frame: string) => void;
  const closes: number[] = [];

  beforeAll(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0, verifyClient: (info, done) => (info.req.url?.includes('refuse') ? done(false, 401, 'HMAC signature does not match') : done(true)) });
    await new Promise((resolve) => server.once('listening', resolve));
    url = new URL(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/v3.5/chat`);
    server.on('connection', (socket) => {
      socket.on('close', (code) => closes.push(code));
      socket.once('message', (data) => answer(socket, String(data)));
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(async () => {
    // The last test's socket closes on its own time: its close must not count in this test.
    for (let attempt = 0; attempt < 40 && server.clients.size > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    closes.length = 0;
    answer = (socket) => {
      socket.send(FRAME(0, 'Hel'));
      socket.send(FRAME(2, 'lo', { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }));
    };
  });

  const options = { headersTimeoutMs: 2000, bodyTimeoutMs: 2000, lookup };

  it('answers a stream as server-sent events of the frames, and closes the socket after the last', async () => {
    const received: string[] = [];
    answer = (socket, frame) => {
      received.push(frame);
      socket.send(FRAME(0, 'Hel'));
      socket.send(FRAME(2, 'lo'));
    };
    const result = await exchangeSparkFrames(url, '{"header":{}}', { ...options, stream: true });
    expect(result.statusCode).toBe(200);
    expect(result.header('content-type')).toBe('text/event-stream');
    expect((await result.collect(1 << 20))!.toString()).toBe(`data: ${FRAME(0, 'Hel')}\n\ndata: ${FRAME(2, 'lo')}\n\n`);
    expect(received).toEqual(['{"header":{}}']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closes).toEqual([1000]);
  });

  it('answers a request that did not stream with one joined frame', async () => {
    const result = await exchangeSparkFrames(url, '{}', { ...options, stream: false });
    expect(result.header('content-type')).toBe('application/json');
    const joined = JSON.parse((await result.collect(1 << 20))!.toString());
    expect(joined).toMatchObject({ header: { code: 0, status: 2 }, payload: { choices: { text: [{ content: 'Hello' }] }, usage: { text: { prompt_tokens: 3 } } } });
  });

  it('answers a refused handshake with its HTTP status and body', async () => {
    const result = await exchangeSparkFrames(new URL(`${url.href}?refuse=1`), '{}', { ...options, stream: false });
    expect(result.statusCode).toBe(401);
    expect((await result.collect(1 << 20))!.toString()).toBe('HMAC signature does not match');
  });

  it('times out when Spark sends no frame, and closes the socket', async () => {
    answer = () => undefined;
    await expect(exchangeSparkFrames(url, '{}', { ...options, headersTimeoutMs: 100, stream: true })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closes).toHaveLength(1);
  });

  it('closes the socket when the client goes away mid-stream', async () => {
    answer = (socket) => socket.send(FRAME(0, 'Hel'));
    const signal = new UpstreamAbort();
    const result = await exchangeSparkFrames(url, '{}', { ...options, stream: true, signal });
    const ended = new Promise<boolean>((resolve) => result.follow(() => undefined, resolve));
    signal.abort();
    expect(await ended).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closes).toHaveLength(1);
  });
});

describe('the outbound guard on Spark calls', () => {
  const options = { get: () => true } as unknown as OptionsService;
  const channel = { baseUrl: 'http://169.254.169.254', other: 'v3.5', type: 18 } as RelayChannel;
  const target: UpstreamTarget = { channel, key: 'app|secret|key', endpoint: 'chat', upstreamModel: 'SparkDesk', stream: false };
  const call = (host: string) => ({ url: new URL(`http://${host}/v3.5/chat`), method: 'POST' as const, headers: {}, body: '{}', headersTimeoutMs: 1000, bodyTimeoutMs: 1000 });

  it('refuses a metadata address, written or resolved, without dialling it (private networks allowed or not)', async () => {
    const guard = new OutboundGuardService(options);
    const resolved: string[] = [];
    guard.resolver = (host) => {
      resolved.push(host);
      return Promise.resolve([{ address: '169.254.169.254', family: 4 }]);
    };
    const adaptor = new XunfeiAdaptor(guard);
    await expect(adaptor.call(target, call('169.254.169.254'))).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(adaptor.call(target, call('metadata.google.internal'))).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(resolved).toEqual([]);
    await expect(adaptor.call(target, call('spark.example.test'))).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(resolved).toEqual(['spark.example.test']);
  });
});
