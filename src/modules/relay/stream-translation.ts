import type { StreamEncoder } from './formats/inbound-format';
import type { JsonObject } from './wire/wire-format';
import type { StreamDecoder } from './wire/stream-decoder';
import { openAIAnswerText } from './wire/openai-answer';
import type { UsageMeter } from './wire/usage';
import { EventStreamWriter, type ClientResponse, type ClientStreamWriter } from './wire/client-stream-writers';
import { followUpstream, type ChunkSource, type StreamOutcome } from './sse-passthrough';

/**
 * Relays a stream whose format the client does not speak: the adaptor's decoder turns the
 * upstream's bytes into OpenAI chunks, the client format's encoder writes them in the
 * client's framing. Both belong to this request alone. Backpressure as in pass-through; the
 * response headers go out with the first bytes for the client, so until then the caller may
 * still retry.
 */
export function relayTranslatedStream(
  upstream: ChunkSource,
  response: ClientResponse,
  decoder: StreamDecoder,
  encoder: StreamEncoder,
  usage: UsageMeter,
  clientGone: () => boolean,
  writer: ClientStreamWriter = new EventStreamWriter(response),
  queueLength = 0,
): Promise<StreamOutcome> {
  return new Promise((resolve) => {
    let text = '';
    let answered = false;
    let earlyError: JsonObject | undefined;

    const send = (chunks: JsonObject[]): boolean => {
      let out = '';
      for (const chunk of chunks) {
        if (!answered && chunk.error !== undefined) {
          // An error before any answer (overloaded, throttled) fails the attempt, so another channel may answer.
          earlyError = chunk.error as JsonObject;
          upstream.destroy();
          return true;
        }
        answered = true;
        text += openAIAnswerText(chunk);
        out += encoder.encode(chunk);
      }
      return writer.write(out);
    };

    followUpstream(
      upstream,
      response,
      clientGone,
      (bytes) => {
        try {
          return send(decoder.push(bytes));
        } catch {
          // A stream that cannot be translated ends here, as a broken upstream would.
          upstream.destroy();
          return true;
        }
      },
      (upstreamFailed) => {
        if (!clientGone()) {
          send(decoder.end());
          let tail = upstreamFailed ? '' : encoder.end(usage.total);
          // An encoder may hold a whole answer back for its end (Gemini's, a tool call): once the upstream answered, the tail begins the client's answer.
          if (answered && writer.firstChunkAt === undefined) {
            writer.write(tail);
            tail = '';
          }
          writer.end(tail);
        }
        resolve({ usage: usage.total, firstChunkAt: writer.firstChunkAt, clientGone: clientGone(), upstreamFailed, deliveredText: () => text, earlyError });
      },
      queueLength,
    );
  });
}
