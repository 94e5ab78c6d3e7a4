import { EventEmitter } from 'node:events';
import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';
import WebSocket from 'ws';
import type { JsonObject } from '../wire/wire-format';
import { SseDecoder, type SseEvent } from '../wire/sse-decoder';
import type { ClientResponse } from '../wire/client-stream-writers';

/** Frames queued on the socket beyond this many bytes hold the upstream back, as a full TCP buffer does. */
const HIGH_WATER_BYTES = 1024 * 1024;

/**
 * One response of a WebSocket session, as the relay's stages see a client response: the
 * server-sent events they write (pass-through or converted, through EventStreamWriter) leave
 * as text frames, one per event's data, which is how the Responses API speaks over WebSocket.
 * A whole JSON answer (an upstream that did not stream) becomes one `response.completed`.
 * The socket closing before the response ends is the client going away ('close').
 */
export class SocketEventSink extends EventEmitter implements ClientResponse {
  readonly socket = null;
  writableEnded = false;
  writableFinished = false;
  private readonly events = new SseDecoder();
  private jsonAnswer = false;
  private json = '';
  private waitingForDrain = false;
  /** The Response a `response.completed` carried: the socket session keeps it for the next call's previous_response_id. */
  completedResponse?: JsonObject;
  private readonly socketClosed = () => {
    if (!this.writableFinished) this.emit('close');
  };

  constructor(private readonly ws: WebSocket) {
    super();
    ws.once('close', this.socketClosed);
  }

  writeHead(_statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
    this.jsonAnswer = contentTypeOf(headers).includes('json');
    return this;
  }

  write(chunk: string | Buffer): boolean {
    if (this.jsonAnswer) {
      this.json += chunk.toString();
      return true;
    }
    this.sendEvents(this.events.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    if (this.ws.bufferedAmount < HIGH_WATER_BYTES) return true;
    this.waitingForDrain = true;
    return false;
  }

  end(chunk?: string | Buffer): this {
    if (this.writableEnded) return this;
    if (chunk !== undefined && chunk.length > 0) this.write(chunk);
    if (this.jsonAnswer) this.sendCompletedAnswer();
    else this.sendEvents(this.events.end());
    this.writableEnded = true;
    this.writableFinished = true;
    this.ws.off('close', this.socketClosed);
    return this;
  }

  private sendEvents(events: SseEvent[]): void {
    for (const { data } of events) {
      if (data === '' || data === '[DONE]') continue;
      this.sendFrame(data);
    }
  }

  /** The answer of an upstream that did not stream, as the event that ends a streamed one. */
  private sendCompletedAnswer(): void {
    if (this.json) this.sendFrame(`{"type":"response.completed","response":${this.json}}`);
  }

  private keepCompleted(frame: string): void {
    const event = parseSocketEvent(frame);
    const response = event?.type === 'response.completed' ? event.response : undefined;
    if (typeof response === 'object' && response !== null && !Array.isArray(response)) this.completedResponse = response as JsonObject;
  }

  /** One text frame: an event's data, or an upstream socket's event as it came. */
  sendFrame(frame: string): void {
    if (frame.includes('"response.completed"')) this.keepCompleted(frame);
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(frame, () => {
      if (this.waitingForDrain && this.ws.bufferedAmount < HIGH_WATER_BYTES) {
        this.waitingForDrain = false;
        this.emit('drain');
      }
    });
  }
}

/** A frame's JSON object (an event, a message), or undefined for anything else. */
export function parseSocketEvent(text: string): JsonObject | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

function contentTypeOf(headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): string {
  if (!headers) return '';
  if (Array.isArray(headers)) {
    for (let index = 0; index + 1 < headers.length; index += 2) {
      if (String(headers[index]).toLowerCase() === 'content-type') return String(headers[index + 1]);
    }
    return '';
  }
  return String(headers['content-type'] ?? '');
}
