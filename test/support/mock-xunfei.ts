import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/** The credentials the mock Spark knows: a channel key is `APPID|APISecret|APIKey`. */
export const SPARK_APP_ID = 'spark-app-7f3a';
export const SPARK_API_SECRET = 'spark-api-secret-9d41c2';
export const SPARK_API_KEY = 'spark-api-key-5be07a';
export const SPARK_KEY = `${SPARK_APP_ID}|${SPARK_API_SECRET}|${SPARK_API_KEY}`;

export const SPARK_REPLY_TEXT = 'Hello from mock Spark!';
/** The usage the last frame reports: prompt_tokens counts the history too (question_tokens only the question). */
export const SPARK_USAGE = { question_tokens: 4, prompt_tokens: 14, completion_tokens: 9, total_tokens: 23 };

/** How Spark allows a request's date to drift, in seconds. */
const CLOCK_SKEW_SECONDS = 300;

/** One chat the mock received: the path, the signed query and the request frame. */
export interface SparkExchange {
  path: string;
  query: URLSearchParams;
  frame: Record<string, unknown>;
}

/** What the mock answers to one request frame: its reply's text pieces (one frame each), or an error frame. */
export type SparkScript = { pieces: string[]; delayMs?: number; hangAfter?: boolean } | { errorCode: number; message: string };

/**
 * iFlytek Spark's chat WebSocket on loopback. The upgrade is authenticated as Spark does: the
 * `authorization` query parameter decoded, its HMAC-SHA256 signature recomputed with the
 * API secret over host, date and request line, and a wrong one refused with HTTP 401 before
 * any WebSocket (a stale date with 403). Answers come in Spark's frames, status 0, 1, …, 2,
 * usage on the last; `script` replaces the answer per request.
 */
export class MockXunfei {
  url = '';
  readonly exchanges: SparkExchange[] = [];
  script?: (exchange: SparkExchange) => SparkScript | undefined;
  /** Connections the client closed before the answer's last frame. */
  closedEarly = 0;
  private server?: http.Server;
  private readonly sockets = new WebSocketServer({ noServer: true });

  reset(): void {
    this.exchanges.length = 0;
    this.script = undefined;
    this.closedEarly = 0;
  }

  async start(): Promise<this> {
    this.server = http.createServer((_request, response) => response.writeHead(426).end());
    this.server.on('upgrade', (request: http.IncomingMessage, socket: Socket, head: Buffer) => this.upgrade(request, socket, head));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const client of this.sockets.clients) client.terminate();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private upgrade(request: http.IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://mock');
    const refusal = this.authenticate(url, request.headers.host ?? '');
    if (refusal) {
      const body = JSON.stringify({ message: refusal.message });
      socket.end(`HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (client) => this.converse(client, url));
  }

  /** Spark's URL authentication, recomputed: undefined when the signature holds. */
  private authenticate(url: URL, host: string): { status: number; message: string } | undefined {
    const authorization = url.searchParams.get('authorization');
    const date = url.searchParams.get('date') ?? '';
    if (!authorization) return { status: 401, message: 'Unauthorized' };
    const fields = Object.fromEntries([...Buffer.from(authorization, 'base64').toString('utf8').matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
    if (fields.api_key !== SPARK_API_KEY || fields.algorithm !== 'hmac-sha256' || fields.headers !== 'host date request-line') return { status: 401, message: 'HMAC signature cannot be verified' };
    if (!(Math.abs(Date.now() - Date.parse(date)) <= CLOCK_SKEW_SECONDS * 1000)) {
      return { status: 403, message: 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication' };
    }
    const expected = createHmac('sha256', SPARK_API_SECRET).update(`host: ${host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`).digest();
    const given = Buffer.from(fields.signature ?? '', 'base64');
    if (url.searchParams.get('host') !== host || given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 401, message: 'HMAC signature does not match' };
    return undefined;
  }

  private converse(client: WebSocket, url: URL): void {
    let finished = false;
    /** Ends the answer: after an error frame (or the last frame) Spark closes the connection. */
    const finish = (errorFrame?: object): void => {
      finished = true;
      if (errorFrame) client.send(JSON.stringify(errorFrame), () => client.close(1000));
      else client.close(1000);
    };
    client.on('close', () => {
      if (!finished) this.closedEarly++;
    });
    client.once('message', async (data: WebSocket.RawData, isBinary: boolean) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      const exchange = { path: url.pathname, query: url.searchParams, frame };
      this.exchanges.push(exchange);
      const header = frame.header as { app_id?: unknown } | undefined;
      if (isBinary) return finish(sparkErrorFrame(10003, 'the message must be a text frame'));
      if (header?.app_id !== SPARK_APP_ID) return finish(sparkErrorFrame(11200, 'AppIdNoAuthError:(11200)auth no license'));
      const script = this.script?.(exchange) ?? { pieces: SPARK_REPLY_TEXT.split(/(?<= )/) };
      if ('errorCode' in script) return finish(sparkErrorFrame(script.errorCode, script.message));
      for (const [seq, piece] of script.pieces.entries()) {
        if (client.readyState !== WebSocket.OPEN) return;
        const last = seq === script.pieces.length - 1;
        if (last && script.hangAfter) return;
        const status = last ? 2 : seq === 0 ? 0 : 1;
        // The gateway closes as soon as it reads the last frame: that close is no early one.
        if (last) finished = true;
        client.send(JSON.stringify(answerFrame(piece, seq, status)));
        if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
      }
      finish();
    });
  }
}

function answerFrame(content: string, seq: number, status: number): object {
  return {
    header: { code: 0, message: 'Success', sid: 'cht000mock@dx1', status },
    payload: { choices: { status, seq, text: [{ content, role: 'assistant', index: 0 }] }, ...(status === 2 ? { usage: { text: SPARK_USAGE } } : {}) },
  };
}

function sparkErrorFrame(code: number, message: string): object {
  return { header: { code, message, sid: 'cht000mock@dx1', status: 2 } };
}
