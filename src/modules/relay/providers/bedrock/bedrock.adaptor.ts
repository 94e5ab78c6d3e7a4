import { CHANNEL_TYPE } from '../../../channels/channel-types';
import type { EventStreamCodec } from '@smithy/eventstream-codec';
import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { RelayError } from '../../relay-error';
import type { JsonObject, WireFormat } from '../../wire/wire-format';
import type { ClientFormatPassThrough, KnownModels, NativeAdaptor, OutgoingCall, ProviderAdaptor, StreamReframing, UpstreamTarget } from '../adaptor';
import { claudeRequestFromOpenAI, inlineClaudeImages } from '../claude/claude-messages';
import { ImageFetcherService } from '../image-fetcher.service';
import { sseFrame } from '../../wire/sse-decoder';
import { reframedStream, type StreamFramer } from '../../wire/stream-framing';
import { ClaudeAnswers } from '../claude/claude-answers';
import { ClaudeSettings } from '../claude/claude-settings';

const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';
/** The body fields Bedrock's Claude Messages API takes besides anthropic_version and anthropic_beta. */
const BEDROCK_MESSAGES_FIELDS = ['messages', 'system', 'max_tokens', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'tools', 'tool_choice', 'thinking'] as const;

/**
 * Bedrock lists models only through its control-plane API (another service, other
 * permissions), so fetch_models answers the Claude model ids Bedrock serves.
 */
const BEDROCK_CLAUDE_MODELS: readonly string[] = [
  'anthropic.claude-opus-4-1-20250805-v1:0',
  'anthropic.claude-opus-4-20250514-v1:0',
  'anthropic.claude-sonnet-4-5-20250929-v1:0',
  'anthropic.claude-sonnet-4-20250514-v1:0',
  'anthropic.claude-haiku-4-5-20251001-v1:0',
  'anthropic.claude-3-7-sonnet-20250219-v1:0',
  'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'anthropic.claude-3-5-haiku-20241022-v1:0',
  'anthropic.claude-3-haiku-20240307-v1:0',
];

/** A Bedrock channel key: `AK|SK|region`. */
export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export function parseBedrockKey(key: string): BedrockCredentials {
  const [accessKeyId, secretAccessKey, region] = key.split('|').map((part) => part.trim());
  if (!accessKeyId || !secretAccessKey || !region) throw new RelayError('channel:unauthorized', 'The Bedrock channel key must be AK|SK|region', 502);
  return { accessKeyId, secretAccessKey, region };
}

/**
 * AWS Bedrock's Claude models (channel type 33): Claude's Messages body with Bedrock's
 * anthropic_version, the model in the path, SigV4 signing by AWS's own signer, and streams
 * in AWS's binary event-stream framing, decoded by AWS's own codec. A Claude client's body
 * passes through fitted (fitRequest), and the event stream comes back as Claude's SSE; OpenAI
 * clients convert.
 */
@Injectable()
export class BedrockAdaptor extends ClaudeAnswers implements NativeAdaptor, ClientFormatPassThrough, StreamReframing, KnownModels {
  readonly channelTypes = [CHANNEL_TYPE.AWS];
  readonly format = 'bedrock';

  constructor(
    private readonly settings: ClaudeSettings,
    private readonly images: ImageFetcherService,
  ) {
    super();
  }

  buildUrl(target: UpstreamTarget): URL | undefined {
    if (target.endpoint !== 'chat') return undefined;
    const { region } = parseBedrockKey(target.key);
    const base = (target.channel.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`).replace(/\/+$/, '');
    return new URL(`${base}/model/${encodeURIComponent(this.settings.claudeModel(target.upstreamModel))}/${target.stream ? 'invoke-with-response-stream' : 'invoke'}`);
  }

  async buildHeaders(target: UpstreamTarget, call: OutgoingCall): Promise<Record<string, string>> {
    const { accessKeyId, secretAccessKey, region } = parseBedrockKey(target.key);
    // AWS's signer loads with the first Bedrock call (the event-stream codec with the first stream): other gateways never hold it (issue 32).
    const [{ SignatureV4 }, { Sha256 }] = await Promise.all([import('@smithy/signature-v4'), import('@aws-crypto/sha256-js')]);
    const signer = new SignatureV4({ service: 'bedrock', region, credentials: { accessKeyId, secretAccessKey }, sha256: Sha256 });
    const signed = await signer.sign({
      method: 'POST',
      protocol: call.url.protocol,
      hostname: call.url.hostname,
      port: call.url.port ? Number(call.url.port) : undefined,
      path: call.url.pathname,
      query: {},
      // The host undici sends (with the port when it is not the default), as signed.
      headers: { host: call.url.host, 'content-type': 'application/json', accept: target.stream ? 'application/vnd.amazon.eventstream' : 'application/json' },
      body: call.body,
    });
    const { host: _host, ...headers } = signed.headers;
    return headers;
  }

  /** Claude's client format passes through: Bedrock takes its Messages body as it is. */
  clientFormatFor(): WireFormat {
    return 'claude';
  }

  /**
   * A Claude body for Bedrock, which refuses keys it does not know: the fields of
   * Bedrock's Messages API only (as new-api keeps them), so the model (in the path), the
   * stream (in the action) and fields such as metadata, which Claude Code sends, stay out.
   * The beta header becomes Bedrock's anthropic_beta field.
   */
  fitRequest(target: UpstreamTarget, body: JsonObject): JsonObject {
    const fitted: JsonObject = { anthropic_version: BEDROCK_ANTHROPIC_VERSION };
    for (const field of BEDROCK_MESSAGES_FIELDS) if (body[field] !== undefined) fitted[field] = body[field];
    this.settings.fitClientBody(fitted, target.upstreamModel);
    const betas = this.settings.betas(target.upstreamModel, target.clientHeaders?.['anthropic-beta'], target.channel.type);
    if (betas.length > 0) fitted.anthropic_beta = betas;
    return fitted;
  }

  keepsClientBody(): boolean {
    return false;
  }

  /**
   * An OpenAI body as Claude's, then fitted as a Claude client's would be (the user becomes
   * metadata, which Bedrock refuses). Bedrock takes images inline only: linked ones are fetched.
   */
  async convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    const claude = claudeRequestFromOpenAI(body, this.settings.requestOptions(target.upstreamModel));
    return this.fitRequest(target, await inlineClaudeImages(claude, (url) => this.images.fetchInline(url)));
  }

  /** Streams arrive re-framed as Claude's SSE (reframeStream). */
  framesOwnStream(contentType: string): boolean {
    return contentType.includes('amazon.eventstream');
  }

  reframeStream(body: Readable): Readable {
    return reframedStream(body, new AwsEventStreamFramer());
  }

  knownModels(): readonly string[] {
    return BEDROCK_CLAUDE_MODELS;
  }
}

/**
 * AWS event-stream frames as Claude's server-sent events. Each `chunk` frame's JSON body holds
 * one Claude stream event in base64 (`{"bytes": …}`); an exception frame becomes Claude's
 * `error` event. Frames are cut by their length prelude (the first 4 bytes, big-endian) and
 * decoded, CRCs checked, by AWS's codec: a frame that fails breaks the stream.
 */
class AwsEventStreamFramer implements StreamFramer {
  private readonly codec: EventStreamCodec;
  private readonly toUtf8: (bytes: Uint8Array) => string;
  private pending: Buffer = Buffer.alloc(0);

  constructor() {
    // AWS's code loads with the first Bedrock stream, as the signer with the first call (see buildHeaders).
    const { EventStreamCodec: Codec } = require('@smithy/eventstream-codec') as typeof import('@smithy/eventstream-codec');
    const { fromUtf8, toUtf8 } = require('@smithy/util-utf8') as typeof import('@smithy/util-utf8');
    this.codec = new Codec(toUtf8, fromUtf8);
    this.toUtf8 = toUtf8;
  }

  push(bytes: Buffer): string {
    this.pending = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    let out = '';
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt32BE(0);
      if (this.pending.length < length) break;
      out += this.frame(this.pending.subarray(0, length));
      this.pending = this.pending.subarray(length);
    }
    return out;
  }

  end(): string {
    if (this.pending.length > 0) throw new Error('The event stream ended inside a frame');
    return '';
  }

  private frame(bytes: Buffer): string {
    const message = this.codec.decode(bytes);
    const body = this.toUtf8(message.body);
    const messageType = message.headers[':message-type']?.value;
    if (messageType === 'exception' || messageType === 'error') {
      const kind = String(message.headers[':exception-type']?.value ?? message.headers[':error-code']?.value ?? 'error');
      let text = kind;
      try {
        text = String((JSON.parse(body) as { message?: unknown }).message ?? kind);
      } catch {
        // The exception's type alone says enough.
      }
      const type = /throttl/i.test(kind) ? 'rate_limit_error' : 'api_error';
      return sseFrame(JSON.stringify({ type: 'error', error: { type, message: text } }), 'error');
    }
    if (message.headers[':event-type']?.value !== 'chunk') return '';
    const payload = JSON.parse(body) as { bytes?: unknown };
    if (typeof payload.bytes !== 'string') return '';
    const event = Buffer.from(payload.bytes, 'base64').toString('utf8');
    const type = (JSON.parse(event) as { type?: unknown }).type;
    return sseFrame(event, typeof type === 'string' ? type : undefined);
  }
}
