import { Inject, Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { OptionsService } from '../options/options.service';
import { PaymentsService } from './payments.service';
import { TopUpEntity } from './entities/top-up.entity';
import { PayForm } from './top-up.wire';

/**
 * Stripe as a payment method: a Checkout Session per order (its client_reference_id is our
 * trade_no), and the webhook, verified with the SDK's signature check, crediting through
 * PaymentsService.creditPaidOrder like every provider.
 */
@Injectable()
export class StripeCheckoutService {
  private readonly logger = new Logger(StripeCheckoutService.name);
  private client?: { secret: string; stripe: Stripe };

  constructor(
    private readonly payments: PaymentsService,
    private readonly options: OptionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  isConfigured(): boolean {
    return this.options.get('StripeApiSecret') !== '' && this.options.get('StripeWebhookSecret') !== '';
  }

  /** A pending order and the Checkout page that pays it (opened with a plain GET: no form fields). */
  async pay(actor: AuthenticatedUser, amount: number, planId?: number): Promise<PayForm> {
    const base = this.payments.callbackBase();
    if (!base || !this.isConfigured()) throw new AppError('payment.not_configured');
    const plan = planId ? await this.payments.planOnSale(planId) : undefined;
    let order: TopUpEntity;
    let lineItem: Stripe.Checkout.SessionCreateParams.LineItem;
    if (plan) {
      // A plan is one line at its price in units × StripeUnitPrice.
      const money = this.payments.planMoney(actor, plan, this.options.get('StripeUnitPrice'));
      order = await this.payments.createOrder(actor, 0, 'stripe', money, plan);
      lineItem = { quantity: 1, price_data: { currency: 'usd', unit_amount: Math.round(Number(money) * 100), product_data: { name: plan.name } } };
    } else {
      order = await this.payments.createOrder(actor, amount, 'stripe', this.payableMoney(actor, amount));
      lineItem = { quantity: amount, price_data: { currency: 'usd', unit_amount: this.unitCents(actor), product_data: { name: `TUC${amount}` } } };
    }
    let session: Stripe.Checkout.Session;
    try {
      session = await (await this.stripe()).checkout.sessions.create({
        mode: 'payment',
        client_reference_id: order.trade_no,
        metadata: { trade_no: order.trade_no },
        line_items: [lineItem],
        success_url: `${this.options.get('ServerAddress') || base}/topup/return`,
        cancel_url: `${this.options.get('ServerAddress') || base}/topup`,
      });
    } catch (error) {
      // A wrong key, an amount Stripe refuses, Stripe unreachable: the user gets a message, the operator the reason.
      this.logger.warn(`Stripe refused the Checkout Session for order ${order.trade_no}: ${error instanceof Error ? error.message : String(error)}`);
      await this.payments.discardPendingOrder(order.id);
      throw new AppError('payment.provider_failed');
    }
    if (!session.url) throw new AppError('payment.provider_failed');
    return { url: session.url, params: {} };
  }

  /** What Stripe charges for `amount` units, in US dollars as "0.00" text. */
  payableMoney(actor: AuthenticatedUser, amount: number): string {
    this.payments.assertMinimum(amount);
    return ((this.unitCents(actor) * amount) / 100).toFixed(2);
  }

  /** StripeUnitPrice × the group's TopupGroupRatio, in cents: the Checkout line item's unit price. */
  private unitCents(actor: AuthenticatedUser): number {
    return Math.round(this.options.get('StripeUnitPrice') * this.payments.topUpGroupRatio(actor) * 100);
  }

  /**
   * The webhook: answers false for a signature that does not verify (the caller says 400).
   * A paid checkout.session.completed credits its order once; other events are acknowledged.
   */
  async handleWebhook(rawBody: Buffer | undefined, signature: string | undefined): Promise<boolean> {
    const secret = this.options.get('StripeWebhookSecret');
    let event: Stripe.Event;
    try {
      if (!secret || !rawBody || !signature) throw new Error('missing body, signature or secret');
      event = (await this.stripe()).webhooks.constructEvent(rawBody, signature, secret);
    } catch (error) {
      this.logger.warn(`Stripe webhook refused: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') return true;
    const session = event.data.object;
    if (session.payment_status !== 'paid' || session.currency !== 'usd') return true;
    await this.payments.creditPaidOrder({ tradeNo: session.client_reference_id ?? '', paidCents: session.amount_total ?? NaN, provider: 'stripe' });
    return true;
  }

  /**
   * One SDK client per secret key; STRIPE_API_URL points it elsewhere (the tests' mock Stripe).
   * The SDK loads on first use: a gateway without Stripe never holds its code (issue 32).
   */
  private async stripe(): Promise<Stripe> {
    const secret = this.options.get('StripeApiSecret');
    if (this.client?.secret !== secret) {
      const { default: StripeSdk } = await import('stripe');
      const api = this.config.stripeApiUrl ? new URL(this.config.stripeApiUrl) : undefined;
      const endpoint = api ? { host: api.hostname, port: Number(api.port) || undefined, protocol: api.protocol.replace(':', '') as 'http' | 'https' } : {};
      this.client = { secret, stripe: new StripeSdk(secret || 'sk_unset', { ...endpoint, maxNetworkRetries: 1, timeout: 20_000 }) };
    }
    return this.client.stripe;
  }
}
