import { StringDecoder } from 'node:string_decoder';

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
