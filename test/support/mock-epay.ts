import { createHash } from 'node:crypto';
import http from 'node:http';
import { LoopbackServer } from './loopback-server';

/** Signs like an Epay gateway: MD5 of the sorted non-empty fields (without sign, sign_type) joined as a=1&b=2, plus the key. */
export function mockEpaySign(fields: Record<string, string>, key: string): string {
  const joined = Object.keys(fields)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && fields[name] !== '')
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join('&');
  return createHash('md5').update(joined + key).digest('hex');
}

/**
 * A loopback Epay gateway. `POST /submit.php` takes the merchant's signed form, checks the
 * signature, "collects" the payment and sends the signed TRADE_SUCCESS notice to notify_url
 * (as a GET with query fields, like most Epay deployments), then sends the browser back to
 * return_url. What the merchant's notify endpoint answered is kept in `replies`.
 */
export class MockEpay extends LoopbackServer {
  /** Every notice sent, as it was sent, so tests can replay or tamper with it. */
  readonly notices: Record<string, string>[] = [];
  /** The merchant's answer to each notice sent from /submit.php ('success' when it took it). */
  readonly replies: string[] = [];

  constructor(
    readonly merchantId: string,
    readonly key: string,
  ) {
    super();
  }

  /** The notice for a paid order, signed with `key` (the merchant's unless a forger's). */
  notice(order: Record<string, string>, overrides: Record<string, string> = {}, key = this.key): Record<string, string> {
    const fields: Record<string, string> = {
      pid: this.merchantId,
      trade_no: `EP${Date.now()}${Math.floor(Math.random() * 1e6)}`,
      out_trade_no: order.out_trade_no,
      type: order.type,
      name: order.name,
      money: order.money,
      trade_status: 'TRADE_SUCCESS',
      ...overrides,
    };
    return { ...fields, sign: mockEpaySign(fields, key), sign_type: 'MD5' };
  }

  /** Delivers a notice to the merchant as Epay does; answers the merchant's reply body. */
  async deliver(notifyUrl: string, notice: Record<string, string>, method: 'GET' | 'POST' = 'GET'): Promise<string> {
    const body = new URLSearchParams(notice).toString();
    const response =
      method === 'GET'
        ? await fetch(`${notifyUrl}?${body}`)
        : await fetch(notifyUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    return response.text();
  }

  protected async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
    if (req.url !== '/submit.php' || form.pid !== this.merchantId || form.sign !== mockEpaySign(form, this.key)) {
      res.writeHead(400).end('bad request');
      return;
    }
    const notice = this.notice(form);
    this.notices.push(notice);
    this.replies.push(await this.deliver(form.notify_url, notice));
    res.writeHead(302, { location: `${form.return_url}?${new URLSearchParams({ out_trade_no: form.out_trade_no, trade_status: 'TRADE_SUCCESS' })}` }).end();
  }
}
