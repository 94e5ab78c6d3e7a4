import { StringDecoder } from 'node:string_decoder';
import type { JsonObject } from './wire-format';
import type { StreamDecoder } from './stream-decoder';

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
  /** The event's data lines so far, joined by newlines; undefined before its first. */
  private data?: string;

  push(bytes: Buffer): SseEvent[] {
    // Lines are read in place by offset: splitting every chunk into line strings cost more than reading the events.
    const text = this.partial + this.text.write(bytes);
    const events: SseEvent[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      this.readLine(text, start, newline > start && text.charCodeAt(newline - 1) === CARRIAGE_RETURN ? newline - 1 : newline, events);
      start = newline + 1;
    }
    this.partial = start === 0 ? text : text.slice(start);
    return events;
  }

  /** The last event, when the stream ends without the blank line that should close it. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.partial) this.readLine(this.partial, 0, this.partial.length, events);
    this.partial = '';
    this.readLine('', 0, 0, events);
    return events;
  }

  /** The line text[start, end), without its line end. */
  private readLine(text: string, start: number, end: number, events: SseEvent[]): void {
    if (start === end) {
      if (this.data !== undefined) events.push({ event: this.event, data: this.data });
      this.event = undefined;
      this.data = undefined;
    } else if (text.startsWith('data:', start)) {
      const line = text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
      this.data = this.data === undefined ? line : `${this.data}\n${line}`;
    } else if (text.startsWith('event:', start)) {
      this.event = text.slice(start + 6, end).trim();
    }
  }
}

const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;

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
      for (const chunk of this.translate(event)) chunks.push(chunk);
    }
    return chunks;
  }
}
