import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AUTO_GROUP, AutoGroupRouter } from './auto-group';
import { ChannelCacheService, type PriorityTier } from './caches/channel-cache.service';
import { pickKey } from './caches/relay-channel';
import { pickChannel } from './channel-selector';
import type { JsonObject } from './wire/wire-format';
import { countsTokens, type UpstreamTarget } from './providers/adaptor';
import { ProviderRegistry } from './providers/provider-registry';
import type { RelayCaller } from './relay-caller';
import { modelNotFound, RelayError } from './relay-error';
import { parseJsonBody, readRequestBody, refuseNonJsonBody } from './request-body';
import { checkModelAllowed, TokenAuthService } from './token-auth.service';
import { TokenCounterService } from './token-counter.service';
import { UpstreamClientService } from './upstream-client.service';

/**
 * POST /v1/messages/count_tokens (Claude Code asks it before long requests): the input tokens
 * of a Claude Messages body. A channel of Anthropic's that serves the model counts it; without
 * one, or when it fails, the gateway counts with its own tokenizer (in the counter's worker).
 * Free, as Anthropic's is: no quota hold, no log row, no model rate limit.
 */
@Injectable()
export class ClaudeTokenCountService {
  private readonly logger = new Logger(ClaudeTokenCountService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokenAuth: TokenAuthService,
    private readonly channels: ChannelCacheService,
    private readonly autoGroups: AutoGroupRouter,
    private readonly providers: ProviderRegistry,
    private readonly upstream: UpstreamClientService,
    private readonly tokenCounter: TokenCounterService,
  ) {}

  /** Claude's answer: `{ input_tokens }`. */
  async count(request: IncomingMessage): Promise<{ input_tokens: number }> {
    const caller = await this.tokenAuth.authenticate(request);
    refuseNonJsonBody(request);
    const body = parseJsonBody(await readRequestBody(request, this.config.relay.maxRequestBodyBytes));
    const model = typeof body.model === 'string' ? body.model : '';
    if (!model) throw new RelayError('invalid_request', 'The request names no model', 400);
    if (!Array.isArray(body.messages)) throw new RelayError('invalid_request', 'messages: an array of messages is required', 400);
    checkModelAllowed(caller, model);
    // A model no channel lists is unknown, as the relay answers it (Anthropic's count answers 404 too).
    if (!this.channels.listsModel(model)) throw modelNotFound(model);
    const counted = (await this.countUpstream(request, this.tiersFor(caller, model), model, body)) ?? (await this.tokenCounter.countPrompt('chat', model, body));
    return { input_tokens: counted };
  }

  private tiersFor(caller: RelayCaller, model: string): PriorityTier[] {
    if (caller.group !== AUTO_GROUP) return this.channels.tiers(caller.group, model);
    return this.autoGroups.candidates(caller.user.group, model).flatMap((candidate) => candidate.tiers);
  }

  /** The count of an Anthropic channel serving the model (picked as the relay picks), or undefined when none does or it fails. */
  private async countUpstream(request: IncomingMessage, tiers: PriorityTier[], model: string, body: JsonObject): Promise<number | undefined> {
    const counting = tiers.map((tier) => ({ ...tier, members: tier.members.filter((member) => countsTokens(this.providers.forChannelType(member.channel.type))) }));
    const channel = pickChannel(counting, new Set());
    const adaptor = channel && this.providers.forChannelType(channel.type);
    if (!channel || !countsTokens(adaptor)) return undefined;
    const target: UpstreamTarget = {
      channel,
      key: pickKey(channel),
      endpoint: 'chat',
      upstreamModel: channel.modelMapping[model] || model,
      stream: false,
      clientHeaders: request.headers,
    };
    try {
      const url = adaptor.countTokensUrl(channel);
      const payload = JSON.stringify({ ...body, model: target.upstreamModel });
      const headers = await adaptor.buildHeaders(target, { url, body: payload });
      headers['content-type'] = 'application/json';
      const answer = await this.upstream.send({ url, method: 'POST', headers, body: payload, headersTimeoutMs: this.config.relay.timeoutMs, bodyTimeoutMs: this.config.relay.timeoutMs });
      const reply = (await answer.body.json().catch(() => undefined)) as { input_tokens?: unknown } | undefined;
      const tokens = reply?.input_tokens;
      if (answer.statusCode === 200 && typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0) return tokens;
      this.logger.warn(`channel ${channel.id} answered count_tokens with status ${answer.statusCode}; counting locally`);
    } catch (error) {
      this.logger.warn(`channel ${channel.id} count_tokens failed (${error instanceof Error ? error.message : String(error)}); counting locally`);
    }
    return undefined;
  }
}
