import { Body, Controller, Get, Headers, Post, Query, RawBodyRequest, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthenticatedUser, CurrentUser, Public } from '../../common/auth/auth.decorators';
import { Page, parsePageQuery } from '../../common/http/pagination';
import { PayableAmountDto, PayDto } from './dto/payment.dto';
import { PaymentsService } from './payments.service';
import { StripeCheckoutService } from './stripe-checkout.service';
import { PayForm, TopUpView } from './top-up.wire';
import { PagedListQuery } from '../../common/http/query-docs';

/** The wallet's online top-up: price lookup, orders, history, and the providers' notices. */
@Controller('api/user')
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly stripe: StripeCheckoutService,
  ) {}

  /** The payable amount for `amount` units, as "0.00" text (in US dollars for payment_method "stripe"). */
  @Post('amount')
  amount(@CurrentUser() actor: AuthenticatedUser, @Body() dto: PayableAmountDto): string {
    return dto.payment_method === 'stripe' ? this.stripe.payableMoney(actor, dto.amount) : this.payments.payableMoney(actor, dto.amount);
  }

  /** payment_method `stripe` opens a Stripe Checkout page; the others are Epay's methods. With plan_id the order buys that plan. */
  @Post('pay')
  pay(@CurrentUser() actor: AuthenticatedUser, @Body() dto: PayDto): Promise<PayForm> {
    return dto.payment_method === 'stripe' ? this.stripe.pay(actor, dto.amount, dto.plan_id) : this.payments.payWithEpay(actor, dto);
  }

  /** Stripe's webhook: the raw body is what its signature covers. */
  @Public()
  @Post('stripe/webhook')
  async stripeWebhook(@Req() request: RawBodyRequest<Request>, @Headers('stripe-signature') signature: string | undefined, @Res() response: Response): Promise<void> {
    const verified = await this.stripe.handleWebhook(request.rawBody, signature);
    if (verified) response.status(200).json({ received: true });
    else response.status(400).json({ error: 'signature verification failed' });
  }

  @Get('topup/self')
  @PagedListQuery()
  history(@CurrentUser() actor: AuthenticatedUser, @Query() query: Record<string, string>): Promise<Page<TopUpView>> {
    return this.payments.history(actor, parsePageQuery(query));
  }

  /** Epay calls back with GET (query fields) or POST (form fields); it wants the bare word `success`. */
  @Public()
  @Get('epay/notify')
  epayNotifyByGet(@Query() query: Record<string, unknown>, @Res() response: Response): Promise<void> {
    return this.answerEpay(query, response);
  }

  @Public()
  @Post('epay/notify')
  epayNotifyByPost(@Body() body: Record<string, unknown>, @Res() response: Response): Promise<void> {
    return this.answerEpay(body, response);
  }

  private async answerEpay(fields: Record<string, unknown>, response: Response): Promise<void> {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields ?? {})) if (typeof value === 'string') params[name] = value;
    const credited = await this.payments.handleEpayNotify(params);
    response.status(200).type('text/plain').send(credited ? 'success' : 'fail');
  }
}
