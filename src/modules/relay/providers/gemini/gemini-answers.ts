import type { Readable } from 'node:stream';
import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerReading, StreamReframing, UpstreamTarget } from '../adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import { JsonArrayFramer, reframedStream } from '../../wire/stream-framing';
import type { UsageMeter } from '../../wire/usage';
import { GeminiChunkTranslator, openAIResponseFromGemini, readGeminiAnswer } from './gemini-content';

/**
 * How an adaptor reads answers in Gemini's generateContent format, whole, as SSE, and as the
 * JSON array an upstream answers a stream with when it ignores alt=sse: Google's Gemini API
 * (which extends it) and Vertex's Gemini models (which hold one), as ClaudeAnswers is for the
 * Claude hosts.
 */
export class GeminiAnswers implements StreamReframing {
  readonly streamUsageMarker = /"usageMetadata"/;

  parseResponse(body: unknown): AnswerReading {
    return readGeminiAnswer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return openAIResponseFromGemini(body as JsonObject, target.upstreamModel);
  }

  parseStreamEvent(data: string): AnswerReading | undefined {
    try {
      return readGeminiAnswer(JSON.parse(data));
    } catch {
      return undefined;
    }
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    const chunks = new GeminiChunkTranslator(target.upstreamModel, usage);
    return new SseJsonDecoder((answer) => chunks.translate(answer));
  }

  framesOwnStream(contentType: string): boolean {
    return contentType.includes('json');
  }

  reframeStream(body: Readable): Readable {
    return reframedStream(body, new JsonArrayFramer());
  }
}
