import http from 'node:http';
import { LoopbackServer } from './loopback-server';

/** A Checkout Session as the mock made it (Stripe's wire shape, the fields we use). */
export interface MockCheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete';
  success_url: string;
  cancel_url: string;
}

/**
 * A loopback Stripe API speaking its wire format for what the gateway calls: form-encoded
 * `POST /v1/checkout/sessions` with a Bearer secret key, answered with a checkout.session
 * object (or Stripe's error shape). The Stripe SDK is pointed here with host, port and protocol.
 */
export class MockStripe extends LoopbackServer {
  readonly sessions: MockCheckoutSession[] = [];

  constructor(readonly secretKey: string) {
    super();
  }

  /** The event Stripe sends once a session is paid. */
  completedEvent(session: MockCheckoutSession, overrides: Partial<MockCheckoutSession> = {}): string {
    return JSON.stringify({
      id: `evt_${Math.random().toString(36).slice(2)}`,
      object: 'event',
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      type: 'checkout.session.completed',
      livemode: false,
      pending_webhooks: 1,
      data: { object: { ...session, payment_status: 'paid', status: 'complete', ...overrides } },
    });
  }

  protected async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Date.now()}` }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return reply(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
      return reply(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` } });
    }
    const form = new URLSearchParams(Buffer.concat(chunks).toString());
    let amountTotal = 0;
    for (let index = 0; form.has(`line_items[${index}][quantity]`); index++) {
      amountTotal += Number(form.get(`line_items[${index}][quantity]`)) * Number(form.get(`line_items[${index}][price_data][unit_amount]`));
    }
    const id = `cs_test_${Math.random().toString(36).slice(2)}`;
    const metadata: Record<string, string> = {};
    for (const [key, value] of form) {
      const match = /^metadata\[(.+)\]$/.exec(key);
      if (match) metadata[match[1]] = value;
    }
    const session: MockCheckoutSession = {
      id,
      object: 'checkout.session',
      url: `${this.url}/c/pay/${id}`,
      mode: form.get('mode') ?? 'payment',
      amount_total: amountTotal,
      currency: form.get('line_items[0][price_data][currency]') ?? 'usd',
      client_reference_id: form.get('client_reference_id'),
      metadata,
      payment_status: 'unpaid',
      status: 'open',
      success_url: form.get('success_url') ?? '',
      cancel_url: form.get('cancel_url') ?? '',
    };
    this.sessions.push(session);
    reply(200, session);
  }
}
