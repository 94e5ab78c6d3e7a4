import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, type Dispatcher } from 'undici';
import { OptionsService } from '../options/options.service';
import { ALLOW_PRIVATE_OPTION, OutboundGuardService } from './outbound-guard.service';

/** A request the gateway makes for itself (not a relay): an image to inline, a webhook, a balance. */
export interface WorkerCall {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A JSON body; the worker protocol carries it as JSON. */
  json?: unknown;
  timeoutMs: number;
}

/**
 * Sends the gateway's own outbound requests through the worker when WorkerUrl is set
 * (new-api's worker protocol): POST to WorkerUrl a JSON {url, key: WorkerValidKey, method,
 * headers, body}; the worker makes the request from its own network and answers with the
 * target's answer. The outbound guard judges the worker's address as it judges any other,
 * and the target's scheme, port and literal address before it is handed over.
 */
@Injectable()
export class WorkerFetchService implements OnApplicationShutdown {
  private agent: Agent;

  constructor(
    private readonly guard: OutboundGuardService,
    private readonly options: OptionsService,
  ) {
    this.agent = this.createAgent();
    // Pooled connections were judged under the old setting: start a fresh pool when it changes.
    options.onChange((key) => {
      if (key !== ALLOW_PRIVATE_OPTION && key !== 'WorkerUrl') return;
      const previous = this.agent;
      this.agent = this.createAgent();
      void previous.close();
    });
  }

  get enabled(): boolean {
    return this.options.get('WorkerUrl') !== '';
  }

  async send(call: WorkerCall): Promise<Dispatcher.ResponseData> {
    // WorkerUrl is stored without a trailing slash; new-api posts to the worker's root path with one.
    const worker = new URL(`${this.options.get('WorkerUrl')}/`);
    this.guard.assertUrlAllowed(worker);
    this.guard.assertUrlAllowed(call.url);
    const payload = { url: call.url.href, key: this.options.get('WorkerValidKey'), method: call.method, headers: call.headers, ...(call.json === undefined ? {} : { body: call.json }) };
    return this.agent.request({
      origin: worker.origin,
      path: worker.pathname + worker.search,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      headersTimeout: call.timeoutMs,
      bodyTimeout: call.timeoutMs,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy();
  }

  private createAgent(): Agent {
    return new Agent({ keepAliveTimeout: 10_000, connect: { lookup: this.guard.lookup } });
  }
}
