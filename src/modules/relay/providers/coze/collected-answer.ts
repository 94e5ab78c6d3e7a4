import { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'undici/types/header';
import type { UpstreamAnswer } from '../../../outbound/upstream-answer';

/**
 * A complete JSON answer made by the adaptor (a stream collected into one answer), read by the
 * relay as it reads an upstream's: whole, followed, or as a stream.
 */
export class CollectedAnswer implements UpstreamAnswer {
  readonly headers: IncomingHttpHeaders;
  private readonly bytes: Buffer;

  constructor(
    readonly statusCode: number,
    body: unknown,
  ) {
    this.bytes = Buffer.from(JSON.stringify(body));
    this.headers = { 'content-type': 'application/json', 'content-length': String(this.bytes.length) };
  }

  header(name: string): string | undefined {
    const value = this.headers[name];
    return Array.isArray(value) ? value[0] : value;
  }

  get body(): Readable {
    return Readable.from([this.bytes]);
  }

  collect(limit: number): Promise<Buffer | undefined> {
    return Promise.resolve(this.bytes.length > limit ? undefined : this.bytes);
  }

  follow(data: (chunk: Buffer) => void, end: (failed: boolean) => void): void {
    data(this.bytes);
    end(false);
  }

  /** The answer is already whole: there is nothing to pause, resume or drop. */
  pause(): void {}

  resume(): void {}

  destroy(): void {}
}
