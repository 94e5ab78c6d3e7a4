import { StringDecoder } from 'node:string_decoder';
import type { JsonObject, StreamDecoder } from './adaptor';

/** One server-sent event: its `event:` name (when given) and its joined `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Splits a server-sent-event byte stream into events, across chunk boundaries (a chunk may
 * end mid-line or mid-character). One per request: it keeps the unfinished line.
 */
export class SseDecoder {
  private readonly text = new StringDecoder('utf8');
  private partial = '';
  private event?: string;
  private data: string[] = [];

  push(bytes: Buffer): SseEvent[] {
    const lines = (this.partial + this.text.write(bytes)).split('\n');
    this.partial = lines.pop() ?? '';
    const events: SseEvent[] = [];
    for (const line of lines) this.readLine(line.endsWith('\r') ? line.slice(0, -1) : line, events);
    return events;
  }

  /** The last event, when the stream ends without the blank line that should close it. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.partial) this.readLine(this.partial, events);
    this.partial = '';
    this.readLine('', events);
    return events;
  }

  private readLine(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push({ event: this.event, data: this.data.join('\n') });
      this.event = undefined;
      this.data = [];
    } else if (line.startsWith('data:')) {
      this.data.push(line.charCodeAt(5) === 0x20 ? line.slice(6) : line.slice(5));
    } else if (line.startsWith('event:')) {
      this.event = line.slice(6).trim();
    }
  }
}

/** One event in SSE framing. */
export function sseFrame(data: string, event?: string): string {
  return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

/**
 * A provider's SSE stream of JSON events, each turned into OpenAI chunks by `translate`
 * (which also collects usage). Malformed events and `[DONE]` carry nothing to deliver.
 */
export class SseJsonDecoder implements StreamDecoder {
  private readonly sse = new SseDecoder();

  constructor(private readonly translate: (event: JsonObject) => JsonObject[]) {}

  push(bytes: Buffer): JsonObject[] {
    return this.chunks(this.sse.push(bytes));
  }

  end(): JsonObject[] {
    return this.chunks(this.sse.end());
  }

  private chunks(events: SseEvent[]): JsonObject[] {
    const chunks: JsonObject[] = [];
    for (const { data } of events) {
      if (data === '[DONE]') continue;
      let event: JsonObject;
      try {
        event = JSON.parse(data) as JsonObject;
      } catch {
        continue;
      }
      chunks.push(...this.translate(event));
    }
    return chunks;
  }
}
