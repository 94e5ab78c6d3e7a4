import type { Readable } from 'node:stream';
import type { JsonObject } from './wire/wire-format';
import type { AnswerReading, ProviderAdaptor } from './providers/adaptor';
import { UsageMeter, type Usage } from './wire/usage';
import { EventStreamWriter, type ClientResponse, type ClientStreamWriter } from './wire/client-stream-writers';

/** How a relayed stream went, for billing and the log. */
export interface StreamOutcome {
  /** Usage reported by the upstream in the stream, collected across its events, if any. */
  usage?: Usage;
  /** The text delivered to the client, read lazily: only when usage never came. */
  deliveredText(): string;
  /** When the first chunk went to the client (performance.now()), or undefined if none did. */
  firstChunkAt?: number;
  /** The client went away before the end. */
  clientGone: boolean;
  /** The upstream broke off (timeout between chunks, reset) before the end. */
  upstreamFailed: boolean;
  /** The in-stream error chunk that ended a translated stream before any answer (its `error` member), so the attempt fails as that error. */
  earlyError?: JsonObject;
}

/**
 * Where a relayed stream's bytes come from: the upstream's answer itself (UpstreamAnswer,
 * straight from undici's callbacks) or any Readable (readableSource: a provider's reframed
 * stream, the tests' streams).
 */
export interface ChunkSource {
  /** Calls `data` for each chunk, then `end` once: `failed` when the body broke off before its end. */
  follow(data: (chunk: Buffer) => void, end: (failed: boolean) => void): void;
  pause(): void;
  resume(): void;
  /** Stops reading: `end` follows, failed. */
  destroy(): void;
}

/** A Readable as a ChunkSource. */
export function readableSource(upstream: Readable): ChunkSource {
  return {
    follow(data, end) {
      let ended = false;
      const finish = (failed: boolean) => {
        if (ended) return;
        ended = true;
        upstream.off('data', data);
        end(failed);
      };
      upstream.on('data', data);
      upstream.once('end', () => finish(false));
      upstream.once('error', () => finish(true));
      upstream.once('close', () => finish(!upstream.readableEnded));
    },
    pause: () => upstream.pause(),
    resume: () => upstream.resume(),
    destroy: () => upstream.destroy(),
  };
}

/**
 * Follows an upstream body with backpressure: `onData` writes to the client and answers
 * false when the client's buffer is full; then up to `queueLength` more upstream chunks
 * (StreamCacheQueueLength) are queued for a slow client before the upstream is paused until
 * the client drains. `finish` runs once, when the upstream ends, breaks off
 * (`upstreamFailed`) or the client goes away.
 */
export function followUpstream(
  upstream: ChunkSource,
  response: Pick<ClientResponse, 'on' | 'off'>,
  clientGone: () => boolean,
  onData: (chunk: Buffer) => boolean,
  finish: (upstreamFailed: boolean) => void,
  queueLength = 0,
): void {
  let finished = false;
  let queued = 0;
  const drain = () => {
    queued = 0;
    upstream.resume();
  };
  response.on('drain', drain);
  upstream.follow(
    (chunk) => {
      if (finished || clientGone()) return;
      if (!onData(chunk) && ++queued > queueLength) upstream.pause();
    },
    (failed) => {
      if (finished) return;
      finished = true;
      response.off('drain', drain);
      finish(failed && !clientGone());
    },
  );
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Passes a server-sent-event stream to the client as the upstream sends it, whole lines at a
 * time (no buffering of the answer), with backpressure. Along the way it only looks for events
 * that may carry usage; the rest is kept as text and parsed at the end only if the upstream
 * never reported usage, so the common path costs one regex test per chunk.
 *
 * A chunk that only carries usage (empty `choices`) is billed from and then dropped when the
 * client did not ask for usage (`dropUsageChunks`): OpenAI never sends it unasked, and common
 * client loops read `choices[0]` of every chunk. The response headers go out with the first
 * bytes: until then the caller may still retry.
 */
export function relayEventStream(
  upstream: ChunkSource,
  response: ClientResponse,
  adaptor: ProviderAdaptor,
  clientGone: () => boolean,
  dropUsageChunks = false,
  writer: ClientStreamWriter = new EventStreamWriter(response),
  queueLength = 0,
): Promise<StreamOutcome> {
  return new Promise((resolve) => {
    /** The stream's lines without usage, in order: read only if the upstream reports none. */
    const unread: string[] = [];
    let usageText = '';
    const usage = new UsageMeter();
    let pending: Buffer | undefined;

    /** Reads one whole line; true when the line is a usage-only chunk to keep from the client. */
    const readLine = (line: string): boolean => {
      const data = eventData(line);
      if (data === undefined) return false;
      if (!adaptor.streamUsageMarker.test(data)) {
        unread.push(line);
        return false;
      }
      const reading = adaptor.parseStreamEvent(data);
      usage.add(reading?.usage);
      if (reading?.text) usageText += reading.text;
      return dropUsageChunks && reading?.usageOnly === true;
    };

    /**
     * Reads whole lines and writes them, without the lines to drop. What goes out is always
     * the upstream's own bytes (sliced around a dropped event): a string rebuilt from the lines
     * would cost an encoding copy per chunk.
     */
    const pass = (bytes: Buffer): boolean => {
      // Most chunks carry no usage: one test of the whole chunk (whole lines, so whole
      // characters) spares splitting it into lines. The marker never spans two lines.
      const text = bytes.toString('utf8');
      if (!adaptor.streamUsageMarker.test(text)) {
        unread.push(text);
        return writer.write(bytes);
      }
      let kept: Buffer[] | undefined;
      let keptFrom = 0;
      let start = 0;
      while (start < bytes.length) {
        const newline = bytes.indexOf(NEWLINE, start);
        const end = newline < 0 ? bytes.length : newline + 1;
        const lineEnd = newline < 0 ? end : bytes[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
        if (!readLine(bytes.toString('utf8', start, Math.max(start, lineEnd)))) {
          start = end;
          continue;
        }
        // Drop the line with the blank line that ends its event.
        (kept ??= []).push(bytes.subarray(keptFrom, start));
        start = end;
        if (bytes[start] === NEWLINE) start += 1;
        else if (bytes[start] === CARRIAGE_RETURN && bytes[start + 1] === NEWLINE) start += 2;
        keptFrom = start;
      }
      if (!kept) return writer.write(bytes);
      kept.push(bytes.subarray(keptFrom));
      return writer.write(Buffer.concat(kept));
    };

    followUpstream(
      upstream,
      response,
      clientGone,
      (chunk) => {
        // Only whole lines go out, so a usage chunk can still be held back; the rest waits for its newline.
        const cut = chunk.lastIndexOf(NEWLINE) + 1;
        if (cut === 0) {
          pending = pending ? Buffer.concat([pending, chunk]) : chunk;
          return true;
        }
        const ready = pending ? Buffer.concat([pending, chunk.subarray(0, cut)]) : cut === chunk.length ? chunk : chunk.subarray(0, cut);
        pending = cut === chunk.length ? undefined : chunk.subarray(cut);
        return pass(ready);
      },
      (upstreamFailed) => {
        if (pending && !clientGone()) pass(pending);
        writer.end();
        resolve({
          usage: usage.total,
          firstChunkAt: writer.firstChunkAt,
          clientGone: clientGone(),
          upstreamFailed,
          deliveredText: () => {
            let text = usageText;
            for (const lines of unread) {
              for (const line of lines.split('\n')) {
                const data = eventData(line);
                if (data !== undefined) text += (adaptor.parseStreamEvent(data) as AnswerReading | undefined)?.text ?? '';
              }
            }
            return text;
          },
        });
      },
      queueLength,
    );
  });
}

/** A `data:` line's payload, or undefined for any other line, an empty payload and `[DONE]`. */
function eventData(line: string): string | undefined {
  if (!line.startsWith('data:')) return undefined;
  const data = line.slice(5).trim();
  return data === '' || data === '[DONE]' ? undefined : data;
}
