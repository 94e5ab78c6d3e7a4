import { pipeline, Transform, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { sseFrame } from './sse-decoder';

/** Turns the bytes of a provider's own stream framing into server-sent events, as its frames complete. */
export interface StreamFramer {
  /** The SSE text of the frames this piece completes; throws when a frame cannot be read. */
  push(bytes: Buffer): string;
  /** The SSE text of what is left when the stream ends. */
  end(): string;
}

/**
 * The body re-framed as server-sent events. A frame the framer cannot read breaks the stream,
 * as a broken upstream would; the body's own errors and end carry over.
 */
export function reframedStream(body: Readable, framer: StreamFramer): Readable {
  const emit = (transform: Transform, text: string) => {
    if (text) transform.push(text);
  };
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        emit(this, framer.push(chunk));
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        emit(this, framer.end());
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
  // Errors reach the transform (destroyed with them), where the relay listens.
  pipeline(body, transform, () => undefined);
  return transform;
}

/**
 * A JSON array of objects streamed element by element, as Google answers streamGenerateContent
 * without `alt=sse` (`[{…}\r\n,\r\n{…}]`, pretty-printed): each element becomes one `data:`
 * event. Newlines inside an element are JSON whitespace (strings cannot hold raw ones), so
 * they fold away without a parse.
 */
export class JsonArrayFramer implements StreamFramer {
  private readonly text = new StringDecoder('utf8');
  private element = '';
  private depth = 0;
  private inString = false;
  private escaped = false;

  push(bytes: Buffer): string {
    return this.scan(this.text.write(bytes));
  }

  end(): string {
    const rest = this.scan(this.text.end());
    if (this.depth > 0) throw new Error('The JSON array stream ended inside an element');
    return rest;
  }

  private scan(input: string): string {
    let out = '';
    let start = this.depth > 0 ? 0 : -1;
    for (let index = 0; index < input.length; index++) {
      const char = input[index];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (char === '\\') this.escaped = true;
        else if (char === '"') this.inString = false;
        continue;
      }
      if (char === '{' || char === '[') {
        if (this.depth === 0 && char === '[') continue; // the array itself
        if (this.depth === 0) start = index;
        this.depth++;
      } else if (char === '}' || char === ']') {
        if (this.depth === 0) continue; // the array's end
        this.depth--;
        if (this.depth === 0) {
          out += sseFrame((this.element + input.slice(start, index + 1)).replace(/[\r\n]+/g, ' '));
          this.element = '';
          start = -1;
        }
      } else if (char === '"' && this.depth > 0) {
        this.inString = true;
      } else if (this.depth === 0 && char !== ',' && char.trim() !== '') {
        throw new Error('The JSON array stream holds something other than objects');
      }
    }
    if (start >= 0) this.element += input.slice(start);
    return out;
  }
}
