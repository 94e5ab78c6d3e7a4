import type { JsonObject } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import type { AnswerReading, UpstreamTarget } from '../adaptor';
import type { UsageMeter } from '../../wire/usage';
import { claudeSseDecoder, openAIResponseFromClaude, readClaudeAnswer, readClaudeStreamEvent } from './claude-messages';

/**
 * How an adaptor reads answers in Claude's Messages format, whole and as SSE: Anthropic's own
 * API and Bedrock (once its event stream is re-framed as Claude's SSE) extend it; Vertex holds
 * one for its Claude models.
 */
export class ClaudeAnswers {
  readonly streamUsageMarker = /"type"\s*:\s*"message_(start|delta)"/;

  parseResponse(body: unknown): AnswerReading {
    return readClaudeAnswer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return openAIResponseFromClaude(body as JsonObject, target.upstreamModel);
  }

  parseStreamEvent(data: string): AnswerReading | undefined {
    return readClaudeStreamEvent(data);
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    return claudeSseDecoder(target.upstreamModel, usage);
  }
}
