import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { Injectable } from '@nestjs/common';
import { RelayError } from '../../relay-error';
import type { AnswerReading, JsonObject, OutgoingCall, ProviderAdaptor, StreamDecoder, UpstreamTarget } from '../adaptor';
import { claudeRequestFromOpenAI, ClaudeEventTranslator, openAIResponseFromClaude, readClaudeAnswer } from '../claude/claude-messages';
import { ClaudeSettings } from '../claude/claude-settings';
import type { UsageMeter } from '../usage';

const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

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
 * in AWS's binary event-stream framing, decoded by AWS's own codec. Always converted: Bedrock's
 * framing is not Claude's, so no client's bytes pass through.
 */
@Injectable()
export class BedrockAdaptor implements ProviderAdaptor {
  readonly format = 'bedrock';
  readonly streamUsageMarker = /"type"\s*:\s*"message_(start|delta)"/;

  constructor(private readonly settings: ClaudeSettings) {}

  buildUrl(target: UpstreamTarget): URL | undefined {
    if (target.endpoint !== 'chat') return undefined;
    const { region } = parseBedrockKey(target.key);
    const base = (target.channel.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`).replace(/\/+$/, '');
    return new URL(`${base}/model/${encodeURIComponent(target.upstreamModel)}/${target.stream ? 'invoke-with-response-stream' : 'invoke'}`);
  }

  async buildHeaders(target: UpstreamTarget, call: OutgoingCall): Promise<Record<string, string>> {
    const { accessKeyId, secretAccessKey, region } = parseBedrockKey(target.key);
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

  fitRequest(_target: UpstreamTarget, body: JsonObject): JsonObject {
    return body;
  }

  keepsClientBody(): boolean {
    return false;
  }

  convertRequest(target: UpstreamTarget, body: JsonObject): Promise<JsonObject> {
    const model = target.upstreamModel;
    const { model: _model, stream: _stream, ...claude } = claudeRequestFromOpenAI(body, {
      model,
      defaultMaxTokens: this.settings.defaultMaxTokens(model),
      thinkingBudgetShare: this.settings.thinkingBudgetShare(),
    });
    return Promise.resolve({ anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...claude });
  }

  parseResponse(body: unknown): AnswerReading {
    return readClaudeAnswer(body);
  }

  toOpenAIResponse(body: unknown, target: UpstreamTarget): JsonObject {
    return openAIResponseFromClaude(body as JsonObject, target.upstreamModel);
  }

  parseStreamEvent(): AnswerReading | undefined {
    return undefined;
  }

  createStreamDecoder(target: UpstreamTarget, usage: UsageMeter): StreamDecoder {
    return new BedrockStreamDecoder(new ClaudeEventTranslator(target.upstreamModel, usage));
  }
}

/**
 * AWS event-stream frames, each a `chunk` event whose JSON body holds one Claude stream event
 * in base64 (`{"bytes": …}`), decoded into OpenAI chunks. Frames are cut by their length
 * prelude (the first 4 bytes, big-endian) and decoded, CRCs checked, by AWS's codec.
 */
class BedrockStreamDecoder implements StreamDecoder {
  private readonly codec = new EventStreamCodec(toUtf8, fromUtf8);
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly events: ClaudeEventTranslator) {}

  push(bytes: Buffer): JsonObject[] {
    this.pending = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    const chunks: JsonObject[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt32BE(0);
      if (this.pending.length < length) break;
      const frame = this.pending.subarray(0, length);
      this.pending = this.pending.subarray(length);
      chunks.push(...this.translate(frame));
    }
    return chunks;
  }

  end(): JsonObject[] {
    return [];
  }

  private translate(frame: Buffer): JsonObject[] {
    try {
      const message = this.codec.decode(frame);
      if (message.headers[':event-type']?.value !== 'chunk') return [];
      const payload = JSON.parse(toUtf8(message.body)) as { bytes?: string };
      if (typeof payload.bytes !== 'string') return [];
      return this.events.translate(JSON.parse(Buffer.from(payload.bytes, 'base64').toString('utf8')) as JsonObject);
    } catch {
      // A frame that fails its checksum or carries no JSON holds nothing to deliver.
      return [];
    }
  }
}
