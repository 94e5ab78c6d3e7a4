import { Inject, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ObjectLiteral, Repository } from 'typeorm';
import { OptionsService } from '../options/options.service';
import type { RelayChannel } from '../relay/caches/relay-channel';
import { ChannelMonitorService } from '../monitoring/channel-monitor.service';
import type { RelayCaller } from '../relay/relay-caller';
import { RelayError } from '../relay/relay-error';
import { SensitiveWordsService } from '../relay/sensitive-words/sensitive-words.service';
import { TaskBillingService } from './task-billing.service';
import { sendJson, TaskRelaySupport } from './task-relay-support.service';

const ADMIN_ROLE = 10;

/** Admins may fetch any task; others only their own. */
export function isAdmin(caller: RelayCaller): boolean {
  return caller.user.role >= ADMIN_ROLE;
}

/**
 * What the Midjourney and Suno relays share: their dependencies, the switch that turns the
 * relay off, and answering every failure in the relay's own error shape without a stack.
 */
export abstract class TaskRelayService<T extends ObjectLiteral> {
  protected readonly logger = new Logger(this.constructor.name);
  // Shared by every relay: injected on the base (as Nest's docs advise for base classes), so
  // each relay's constructor names only what differs, its table.
  @Inject() protected readonly support!: TaskRelaySupport;
  @Inject() protected readonly billing!: TaskBillingService;
  @Inject() protected readonly options!: OptionsService;
  @Inject() protected readonly monitor!: ChannelMonitorService;
  /** Prompts are checked against the sensitive words before anything is charged, as on the chat relay. */
  @Inject() protected readonly sensitiveWords!: SensitiveWordsService;

  protected constructor(
    protected readonly tasks: Repository<T>,
    private readonly relaySwitch: { option: 'DrawingEnabled' | 'TaskEnabled'; offMessage: string },
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    try {
      if (!this.options.get(this.relaySwitch.option)) throw new RelayError('feature_disabled', this.relaySwitch.offMessage, 403);
      await this.route(request, response, path);
    } catch (error) {
      if (response.headersSent) {
        if (!response.writableEnded) response.end();
        return;
      }
      const relayError = this.asRelayError(error);
      sendJson(response, relayError.status, this.errorBody(relayError));
    }
  }

  /** Serves one request of the relay's paths. */
  protected abstract route(request: IncomingMessage, response: ServerResponse, path: string): Promise<void>;

  /** The relay's wire shape of an error. */
  protected abstract errorBody(error: RelayError): unknown;

  protected asRelayError(error: unknown): RelayError {
    if (error instanceof RelayError) return error;
    this.logger.error('task relay request failed', error instanceof Error ? error.stack : String(error));
    return new RelayError('internal_error', 'The gateway failed to handle the request', 500);
  }

  /** Disables a channel the upstream says is broken, off the request path. */
  protected disableChannel(channel: RelayChannel, reason: string): void {
    this.monitor.disableChannel(channel, reason).catch((error: Error) => this.logger.error(`disabling channel ${channel.id} failed: ${error.message}`));
  }
}
