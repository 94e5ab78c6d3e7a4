import { Injectable } from '@nestjs/common';
import { RelayError } from '../relay-error';
import { UpstreamClientService } from '../upstream-client.service';
import type { InlineImage } from './gemini/gemini-content';

/** Larger images are refused rather than held in memory. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 20_000;

/**
 * Fetches an image a request links to, for providers that only take images inline. Through
 * the worker when WorkerUrl is set, else the upstream client; the outbound guard judges the
 * address either way; size-limited.
 */
@Injectable()
export class ImageFetcherService {
  constructor(private readonly upstream: UpstreamClientService) {}

  async fetchInline(url: string): Promise<InlineImage> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new RelayError('invalid_request', 'An image URL in the request is not a valid URL', 400);
    }
    let answer;
    try {
      answer = await this.upstream.sendOwn({ url: parsed, method: 'GET', headers: {}, headersTimeoutMs: FETCH_TIMEOUT_MS, bodyTimeoutMs: FETCH_TIMEOUT_MS });
    } catch {
      throw new RelayError('invalid_request', 'An image URL in the request could not be fetched', 400);
    }
    if (answer.statusCode >= 400) {
      answer.body.destroy();
      throw new RelayError('invalid_request', `An image URL in the request answered ${answer.statusCode}`, 400);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_IMAGE_BYTES) {
        answer.body.destroy();
        throw new RelayError('invalid_request', `An image in the request is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`, 400);
      }
      chunks.push(chunk as Buffer);
    }
    const mimeType = String(answer.headers['content-type'] ?? 'image/png').split(';')[0].trim();
    return { mimeType, data: Buffer.concat(chunks).toString('base64') };
  }
}
