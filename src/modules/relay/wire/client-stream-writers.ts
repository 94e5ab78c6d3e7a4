import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { REQUEST_ID_HEADER } from '../../../common/logging/request-context';
import { SseDecoder, type SseEvent } from './sse-decoder';

/**
 * Where the relay writes an answer: Node's ServerResponse, or a WebSocket session's sink that
 * sends each event as a frame (`websocket/socket-event-sink.ts`). Only what the stages use.
 */
export interface ClientResponse {
  writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): unknown;
  write(chunk: string | Buffer): boolean;
  end(chunk?: string | Buffer): unknown;
  on(event: 'close' | 'drain', listener: () => void): unknown;
  off(event: 'close' | 'drain', listener: () => void): unknown;
  /** The connection, to cork what one turn writes; null when there is none to cork. */
  readonly socket: Socket | null;
  readonly writableEnded: boolean;
  readonly writableFinished: boolean;
  /** A header every later writeHead carries (Node's ServerResponse; a WebSocket sink has no headers). */
  setHeader?(name: string, value: string): unknown;
}

/**
 * Response headers as Node's flat list (name, value, name, value…). Adding the request id to a
 * copy of an object by spreading it made writeHead five times slower (2.9 µs against 0.6 µs):
 * the copy is a dictionary object that Node's header loop walks slowly.
 */
export type HeaderList = readonly string[];

export const SSE_HEADERS: HeaderList = ['content-type', 'text/event-stream; charset=utf-8', 'cache-control', 'no-cache', 'connection', 'keep-alive', 'x-accel-buffering', 'no'];

/** Where a relayed stream goes: server-sent events (given as whole lines) in the client's stream framing. */
export interface ClientStreamWriter {
  /** When the first bytes went to the client (performance.now()), or undefined while none did. */
  readonly firstChunkAt?: number;
  /** False when the client's buffer is full (wait for 'drain'). */
  write(out: string | Buffer): boolean;
  /** Ends the answer with its last events, once anything went out (until then the relay may still retry). */
  end(tail?: string): void;
}

/**
 * Writes a stream to the client: the headers go out with the first bytes, so until then the
 * relay may still retry. The request id, when given, goes out among them.
 */
export class EventStreamWriter implements ClientStreamWriter {
  firstChunkAt?: number;
  private readonly headers: HeaderList;
  private corked = false;

  constructor(
    private readonly response: ClientResponse,
    requestId?: string,
    headers: HeaderList = SSE_HEADERS,
  ) {
    this.headers = requestId ? [...headers, REQUEST_ID_HEADER, requestId] : headers;
  }

  write(out: string | Buffer): boolean {
    if (out.length === 0) return true;
    if (this.firstChunkAt === undefined) {
      this.firstChunkAt = performance.now();
      this.response.writeHead(200, this.headers as string[]);
    }
    this.holdUntilTurnEnds();
    return this.response.write(out);
  }

  /**
   * What is written in one turn of the event loop leaves in one system call. An upstream's last
   * chunk and its end arrive together, but Node's own cork lasts only until the next tick, and
   * the body's 'end' comes after it: the chunked terminator went out in a write of its own.
   */
  private holdUntilTurnEnds(): void {
    const socket = this.response.socket;
    if (this.corked || !socket) return;
    this.corked = true;
    socket.cork();
    setImmediate(() => {
      this.corked = false;
      socket.uncork();
    });
  }

  end(tail = ''): void {
    if (this.firstChunkAt !== undefined && !this.response.writableEnded) this.response.end(tail);
  }
}

const JSON_STREAM_HEADERS: HeaderList = ['content-type', 'application/json; charset=utf-8', 'cache-control', 'no-cache', 'x-accel-buffering', 'no'];

/**
 * Gemini's other stream framing, for clients that call streamGenerateContent without
 * `alt=sse`: one JSON array, each event an element, written as the events come.
 */
export class JsonArrayStreamWriter implements ClientStreamWriter {
  private readonly out: EventStreamWriter;
  private readonly sse = new SseDecoder();
  private elements = 0;

  constructor(response: ClientResponse, requestId: string) {
    this.out = new EventStreamWriter(response, requestId, JSON_STREAM_HEADERS);
  }

  get firstChunkAt(): number | undefined {
    return this.out.firstChunkAt;
  }

  write(out: string | Buffer): boolean {
    return this.out.write(this.elementsOf(this.sse.push(Buffer.from(out))));
  }

  end(tail = ''): void {
    if (this.out.firstChunkAt === undefined) return;
    this.out.write(this.elementsOf([...this.sse.push(Buffer.from(tail)), ...this.sse.end()]));
    this.out.end(']');
  }

  private elementsOf(events: SseEvent[]): string {
    let text = '';
    for (const { data } of events) text += `${this.elements++ === 0 ? '[' : ',\r\n'}${data}`;
    return text;
  }
}
