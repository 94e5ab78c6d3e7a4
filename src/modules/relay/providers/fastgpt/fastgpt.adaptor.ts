import { Injectable } from '@nestjs/common';
import { CHANNEL_TYPE, channelTypeRow, type ChannelTypeRow } from '../../../channels/channel-types';
import type { JsonObject, WireFormat } from '../../wire/wire-format';
import type { StreamDecoder } from '../../wire/stream-decoder';
import { answerErrorChunk, type AnswerError, type AnswerErrors, type AnswerReading, type NativeAdaptor, type UpstreamTarget } from '../adaptor';
import { openAIAnswerText } from '../../wire/openai-answer';
import { readUsage } from '../../wire/openai-usage';
import { OpenAICompatibleAdaptor } from '../openai-compatible/openai-compatible.adaptor';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import { tokenCount, type UsageMeter, type UsageReport } from '../../wire/usage';

/**
 * FastGPT's named errors (its ERROR_RESPONSE table), which it answers with HTTP 200 and
 * `{code, statusText, message}`: a bad key is 401, an exhausted account insufficient_quota.
 */
const NAMED_ERRORS: Readonly<Record<string, { status: number; code?: string }>> = {
  unAuthApiKey: { status: 401 },
  unAuthorization: { status: 401 },
  insufficientQuota: { status: 429, code: 'insufficient_quota' },
  aiPointsNotEnough: { status: 429, code: 'insufficient_quota' },
};

/** FastGPT's members that OpenAI's answers lack (detail mode's node results, updated variables). */
const FASTGPT_EXTRAS = ['responseData', 'newVariables'];

/**
 * FastGPT (channel type 22): an app behind OpenAI's chat completions (`{base}/v1/chat/completions`,
 * the cloud's base being `https://api.fastgpt.in/api`), keyed by the app's key. Its quirks:
 * - `detail` is forced false, so answers and streams keep OpenAI's shape (detail adds
 *   `responseData` node results, and names stream events `answer`, `flowNodeStatus`, `flowResponses`);
 * - a client's `chatId` and `variables` pass on; without a chatId FastGPT keeps no history,
 *   and the gateway sends none of its own;
 * - usage is billed from the answer only when it adds up: FastGPT documents that it reports no
 *   real counts and writes `1/1/1` instead, which is counted locally like a missing usage.
 * Its own format, since errors come inside HTTP 200 answers: every answer is read and translated.
 */
@Injectable()
export class FastGPTAdaptor extends OpenAICompatibleAdaptor implements NativeAdaptor, AnswerErrors {
  readonly channelTypes = [CHANNEL_TYPE.FASTGPT];
  override readonly format: WireFormat = 'fastgpt';

  constructor() {
    super({ ...(channelTypeRow(CHANNEL_TYPE.FASTGPT) as ChannelTypeRow), streamUsage: false });
  }

  override fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject {
    super.fitRequest(target, body);
    body.detail = false;
    return body;
  }

  answerError(body: unknown): AnswerError | undefined {
    if (typeof body !== 'object' || body === null || 'choices' in body) return undefined;
    const answer = body as JsonObject;
    if (typeof answer.statusText !== 'string' || typeof answer.code !== 'number' || answer.code === 200) return undefined;
    const named = NAMED_ERRORS[answer.statusText];
    const message = typeof answer.message === 'string' && answer.message ? answer.message : answer.statusText || `FastGPT code ${answer.code}`;
    // Its other codes are HTTP-like (400, 500) or its own five-digit ones, which are its faults.
    const status = named?.status ?? (answer.code >= 400 && answer.code < 500 ? answer.code : 500);
    return { status, message, code: named?.code ?? (answer.statusText || undefined) };
  }

  override parseResponse(body: unknown): AnswerReading {
    if (typeof body !== 'object' || body === null) return { text: '' };
    const answer = body as JsonObject;
    return { usage: countedUsage(answer.usage), text: openAIAnswerText(answer) };
  }

  override toOpenAIResponse(body: unknown): JsonObject {
    const answer: JsonObject = {};
    for (const [member, value] of Object.entries(body as JsonObject)) if (!FASTGPT_EXTRAS.includes(member)) answer[member] = value;
    answer.object = 'chat.completion';
    // The stand-in counts would mislead the client: without real ones it gets none.
    if (!countedUsage(answer.usage)) delete answer.usage;
    return answer;
  }

  override createStreamDecoder(_target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    return new SseJsonDecoder((chunk) => {
      const error = this.answerError(chunk);
      if (error) return [answerErrorChunk(error)];
      usage.add(countedUsage(chunk.usage));
      chunk.usage = undefined;
      return [chunk];
    });
  }

  /** Answers are always translated, so their bytes are never read for usage on the way. */
  override readUsageFromBytes(): undefined {
    return undefined;
  }
}

/** FastGPT's usage when it is a real count: its documented stand-in (1, 1, total 1) does not add up. */
function countedUsage(value: unknown): UsageReport | undefined {
  const usage = readUsage(value);
  if (!usage) return undefined;
  const total = tokenCount((value as JsonObject).total_tokens);
  return total === (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0) ? usage : undefined;
}
