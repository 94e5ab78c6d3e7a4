import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { AnswerReading, ProviderAdaptor, Usage } from './providers/adaptor';

/** How a relayed stream went, for billing and the log. */
export interface StreamOutcome {
  /** Usage reported by the upstream in the stream, if any. */
  usage?: Usage;
  /** The text delivered to the client, read lazily: only when usage never came. */
  deliveredText(): string;
  /** When the first chunk went to the client (performance.now()), or undefined if none did. */
  firstChunkAt?: number;
  /** The client went away before the end. */
  clientGone: boolean;
  /** The upstream broke off (timeout between chunks, reset) before the end. */
  upstreamFailed: boolean;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * Passes a server-sent-event stream to the client chunk by chunk, as the upstream sends it
 * (no buffering of the answer), with backpressure. Along the way it only looks for events
 * that may carry usage; other events are kept as strings and parsed at the end only if the
 * upstream never reported usage, so the common path costs a line split and a regex test.
 * The response headers go out with the first chunk: until then the caller may still retry.
 */
export function relayEventStream(upstream: Readable, response: ServerResponse, adaptor: ProviderAdaptor, clientGone: () => boolean): Promise<StreamOutcome> {
  return new Promise((resolve) => {
    const decoder = new StringDecoder('utf8');
    const events: string[] = [];
    let usageText = '';
    let usage: Usage | undefined;
    let partial = '';
    let firstChunkAt: number | undefined;
    let settled = false;

    const readLine = (line: string) => {
      if (!line.startsWith('data:')) return;
      const data = line.slice(5).trim();
      if (data === '' || data === '[DONE]') return;
      if (adaptor.streamUsageMarker.test(data)) {
        const reading = adaptor.parseStreamEvent(data);
        if (reading?.usage) usage = reading.usage;
        if (reading?.text) usageText += reading.text;
      } else {
        events.push(data);
      }
    };

    const finish = (upstreamFailed: boolean) => {
      if (settled) return;
      settled = true;
      upstream.off('data', onData);
      response.off('drain', onDrain);
      if (partial) readLine(partial);
      if (firstChunkAt !== undefined && !response.writableEnded) response.end();
      resolve({
        usage,
        firstChunkAt,
        clientGone: clientGone(),
        upstreamFailed,
        deliveredText: () => {
          let text = usageText;
          for (const data of events) text += (adaptor.parseStreamEvent(data) as AnswerReading | undefined)?.text ?? '';
          return text;
        },
      });
    };

    const onData = (chunk: Buffer) => {
      if (clientGone()) return;
      if (firstChunkAt === undefined) {
        firstChunkAt = performance.now();
        response.writeHead(200, SSE_HEADERS);
      }
      if (!response.write(chunk)) upstream.pause();
      const lines = (partial + decoder.write(chunk)).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) readLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    };
    const onDrain = () => upstream.resume();

    upstream.on('data', onData);
    response.on('drain', onDrain);
    upstream.once('end', () => finish(false));
    upstream.once('error', () => finish(!clientGone()));
    upstream.once('close', () => finish(!upstream.readableEnded && !clientGone()));
  });
}
