import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import path from 'node:path';
import { ThreadRequests } from '../../common/threads/thread-requests';
import type { JsonObject } from './wire/wire-format';
import type { RelayEndpoint } from './relay-endpoints';
import { encodingFor, promptTexts, type TokenEncoding } from './token-counter';

/**
 * Most of a request's text counted exactly; past it the count is extrapolated, so one huge
 * prompt costs the worker a bounded time instead of queueing everyone else's counts.
 */
const COUNT_CAP_CHARS = 256 * 1024;

/**
 * Real BPE token counts, for billing a request whose upstream reported no usage. The count
 * runs in a worker thread (token-count.worker.js): BPE on a long prompt takes seconds, which
 * on the event loop would stall every other request. The encodings (~70 MB for o200k) load
 * in the worker on first use; most upstreams report usage, so many gateways never start it.
 */
@Injectable()
export class TokenCounterService implements OnApplicationShutdown {
  private readonly logger = new Logger(TokenCounterService.name);
  /** Started on the first count. */
  private readonly counter = new ThreadRequests<{ encoding: TokenEncoding; texts: string[] }>(path.join(__dirname, 'token-count.worker.js'), { name: 'the token count worker' });

  async countPrompt(endpoint: RelayEndpoint, model: string, body: JsonObject): Promise<number> {
    const { texts, framingTokens } = promptTexts(endpoint, body);
    return framingTokens + (await this.count(model, texts));
  }

  countText(model: string, text: string): Promise<number> {
    return this.count(model, [text]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.counter.stop();
  }

  /** Exact up to COUNT_CAP_CHARS; a worker failure falls back to the hold's estimate (a token per three bytes). */
  private async count(model: string, texts: string[]): Promise<number> {
    let totalChars = 0;
    for (const text of texts) totalChars += text.length;
    if (totalChars === 0) return 0;
    const counted: string[] = [];
    let countedChars = 0;
    for (const text of texts) {
      if (countedChars >= COUNT_CAP_CHARS) break;
      const part = text.slice(0, COUNT_CAP_CHARS - countedChars);
      counted.push(part);
      countedChars += part.length;
    }
    try {
      const tokens = (await this.run(encodingFor(model), counted)).reduce((sum, count) => sum + count, 0);
      return countedChars === totalChars ? tokens : Math.round((tokens * totalChars) / countedChars);
    } catch (error) {
      this.logger.warn(`token count failed, billing an estimate: ${error instanceof Error ? error.message : String(error)}`);
      return texts.reduce((sum, text) => sum + Math.ceil(Buffer.byteLength(text) / 3), 0);
    }
  }

  private run(encoding: TokenEncoding, texts: string[]): Promise<number[]> {
    return this.counter.send({ encoding, texts });
  }
}
