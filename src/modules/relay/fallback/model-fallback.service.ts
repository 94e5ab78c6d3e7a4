import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { OptionsService } from '../../options/options.service';
import { RelayError } from '../relay-error';
import type { ClientResponse } from '../wire/client-stream-writers';
import { RelayPrepareStage } from '../stages/prepare.stage';
import type { Delivery, PreparedRequest } from '../stages/relay-request';
import { fallbackChain, FallbackResponse, fallsBack } from './model-fallbacks';

/** One model's dispatch (its channels, with the usual failover), answering through `response`; `fallback` is false for the model asked for. */
export type ModelDispatch = (response: ClientResponse, fallback: boolean) => Promise<Delivery>;

/**
 * Model fallback chains (ModelFallbacks, or the token's own list): when every channel of the
 * requested model has failed with a fault that is not the client's, the next model of the
 * chain is prepared (its channels, price and hold) and dispatched, until one answers or the
 * chain runs out. The whole chain shares one RELAY_TIMEOUT, counted from the request's start.
 */
@Injectable()
export class ModelFallbackService {
  private readonly logger = new Logger(ModelFallbackService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsService,
    private readonly prepare: RelayPrepareStage,
  ) {}

  /** The models to try after the requested one (usually none). */
  chainFor(request: PreparedRequest): readonly string[] {
    return fallbackChain(request.caller, request.model, request.body, this.options.get('ModelFallbacks'));
  }

  async dispatch(request: PreparedRequest, response: ClientResponse, chain: readonly string[], dispatchModel: ModelDispatch): Promise<Delivery> {
    const deadline = request.startedAt + this.config.relay.timeoutMs;
    request.deadline = deadline;
    const sink = new FallbackResponse(response);
    let lastError: RelayError;
    try {
      return await dispatchModel(sink, false);
    } catch (error) {
      if (!(error instanceof RelayError)) throw error;
      lastError = error;
    }
    const requested = request.model;
    for (const model of chain) {
      if (!mayFallBack(request, sink, lastError, deadline)) break;
      try {
        await this.prepare.retarget(request, model);
      } catch (refusal) {
        // This model cannot serve the caller now (not allowed, no channel, no price, no quota for its hold): the next one may.
        if (!(refusal instanceof RelayError)) throw refusal;
        this.logger.debug(`fallback ${requested} → ${model} passed over: ${refusal.status} ${refusal.code}`);
        continue;
      }
      request.requestedModel = requested;
      sink.fallbackModel = model;
      try {
        return await dispatchModel(sink, true);
      } catch (error) {
        if (!(error instanceof RelayError)) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }
}

/** Whether the chain may go on after `error`: a fault that is not the client's, nothing sent yet, the client still there and time left. */
function mayFallBack(request: PreparedRequest, sink: FallbackResponse, error: RelayError, deadline: number): boolean {
  return fallsBack(error) && !sink.began && !request.clientGone() && performance.now() < deadline;
}
