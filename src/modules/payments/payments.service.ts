import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { randomAlphanumeric } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { logText } from '../logs/log-text';
import { Page, PageQuery, toPage } from '../../common/http/pagination';
import { RateLimiterService } from '../../common/rate-limit/rate-limiter.service';
import { nowSeconds } from '../../database/columns';
import { QuotaLedgerService } from '../billing/quota-ledger.service';
import { OptionsService } from '../options/options.service';
import { PlanEntity } from '../plans/entities/plan.entity';
import { PlansService } from '../plans/plans.service';
import { SubscriptionsService } from '../plans/subscriptions.service';
import { UsersService } from '../users/users.service';
import { PayDto } from './dto/payment.dto';
import { TopUpEntity } from './entities/top-up.entity';
import { epaySign, epayVerify } from './epay-signature';
import { PayForm, TopUpView } from './top-up.wire';

/** Orders a user may open in a window: each is a row and, for Stripe, a call to its API; more is abuse, not shopping. */
const ORDER_LIMIT_PER_USER = 20;
const ORDER_WINDOW_SECONDS = 1200;

/** What a finished order needs to be credited: which order, and what the provider says was paid. */
export interface PaidOrder {
  tradeNo: string;
  /** The paid amount in the provider's currency, in cents. */
  paidCents: number;
  provider: string;
}

/**
 * Online top-up: orders, the payable amount, and crediting a paid order exactly once. The
 * providers (Epay here, Stripe beside it) only verify their own notices and call creditPaidOrder.
 */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger(PaymentsService.name);

  constructor(
    @InjectRepository(TopUpEntity) private readonly orders: Repository<TopUpEntity>,
    private readonly options: OptionsService,
    private readonly ledger: QuotaLedgerService,
    private readonly users: UsersService,
    private readonly rateLimiter: RateLimiterService,
    private readonly plans: PlansService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  /** What Epay charges for a plan: its price in units × Price × the group's TopupGroupRatio, as a top-up of that many units would cost. */
  planMoney(actor: AuthenticatedUser, plan: PlanEntity, unitPrice = this.options.get('Price')): string {
    const money = Math.round(plan.price_cents * unitPrice * this.topUpGroupRatio(actor)) / 100;
    // A free plan is taken from the balance (for nothing), never through a provider.
    if (money <= 0) throw new AppError('payment.amount_too_small', { min: 0.01 });
    return money.toFixed(2);
  }

  /** An enabled plan for an online order. */
  planOnSale(planId: number): Promise<PlanEntity> {
    return this.plans.loadEnabled(planId);
  }

  /** amount × Price × the group's TopupGroupRatio, to the cent, as the provider is asked for it. */
  payableMoney(actor: AuthenticatedUser, amount: number): string {
    this.assertMinimum(amount);
    return (Math.round(amount * this.options.get('Price') * this.topUpGroupRatio(actor) * 100) / 100).toFixed(2);
  }

  /** What the user's group pays per unit relative to the list price (TopupGroupRatio, 1 when unset); every provider applies it. */
  topUpGroupRatio(actor: AuthenticatedUser): number {
    return this.options.get('TopupGroupRatio')[actor.group] ?? 1;
  }

  assertMinimum(amount: number): void {
    const minimum = this.options.get('MinTopUp');
    if (amount < minimum) throw new AppError('payment.amount_too_small', { min: minimum });
  }

  /** A pending order and the signed Epay form that pays it. */
  async payWithEpay(actor: AuthenticatedUser, dto: PayDto): Promise<PayForm> {
    const callbackBase = this.callbackBase();
    const { PayAddress: payAddress, EpayId: merchantId, EpayKey: key } = this.epaySettings();
    if (!callbackBase || !payAddress || !merchantId || !key) throw new AppError('payment.not_configured');
    if (!this.options.get('PayMethods').some((method) => method.type === dto.payment_method)) throw new AppError('payment.invalid_method');
    const plan = dto.plan_id ? await this.planOnSale(dto.plan_id) : undefined;
    const order = plan ? await this.createOrder(actor, 0, dto.payment_method, this.planMoney(actor, plan), plan) : await this.createOrder(actor, dto.amount, dto.payment_method);
    const params: Record<string, string> = {
      pid: merchantId,
      type: dto.payment_method,
      out_trade_no: order.trade_no,
      notify_url: `${callbackBase}/api/user/epay/notify`,
      return_url: `${this.options.get('ServerAddress') || callbackBase}/topup/return`,
      name: plan ? `PLAN${plan.id}` : `TUC${order.amount}`,
      money: order.money,
    };
    params.sign = epaySign(params, key);
    params.sign_type = 'MD5';
    return { url: `${payAddress}/submit.php`, params };
  }

  /**
   * Epay's notice (query or form fields). Answers whether the order is now credited; a replay
   * of a credited order answers true without crediting again.
   */
  async handleEpayNotify(params: Record<string, string>): Promise<boolean> {
    const key = this.epaySettings().EpayKey;
    if (!key || !epayVerify(params, key)) {
      this.logger.warn(`Epay notice with a bad signature for order ${String(params.out_trade_no ?? '').slice(0, 64)}`);
      return false;
    }
    if (params.trade_status !== 'TRADE_SUCCESS') return false;
    const paidCents = Math.round(Number(params.money) * 100);
    return this.creditPaidOrder({ tradeNo: String(params.out_trade_no ?? ''), paidCents, provider: 'epay' });
  }

  /** Credits a verified, paid order once: pending → success inside the crediting transaction. */
  async creditPaidOrder(paid: PaidOrder): Promise<boolean> {
    const order = paid.tradeNo ? await this.orders.findOneBy({ trade_no: paid.tradeNo }) : null;
    if (!order) {
      this.logger.warn(`${paid.provider} notice for an unknown order ${paid.tradeNo.slice(0, 64)}`);
      return false;
    }
    if (!Number.isFinite(paid.paidCents) || paid.paidCents !== Math.round(Number(order.money) * 100)) {
      this.logger.warn(`${paid.provider} notice for order ${order.trade_no} paid ${paid.paidCents} cents, not ${order.money}`);
      return false;
    }
    if (order.status === 'success') {
      this.logger.warn(`${paid.provider} notice replayed for the credited order ${order.trade_no}`);
      return true;
    }
    const user = await this.users.findByIdIncludingDeleted(order.user_id);
    const claim = async (manager: EntityManager): Promise<boolean> => {
      const result = await manager.update(TopUpEntity, { id: order.id, status: 'pending' }, { status: 'success', complete_time: nowSeconds() });
      return (result.affected ?? 0) > 0;
    };
    if (order.plan_id > 0) {
      const source = { trade_no: order.trade_no, money: order.money, paid_with: order.payment_method };
      const granted = await this.subscriptions.grantClaimed({ userId: order.user_id, username: user?.username ?? '', planId: order.plan_id, claim, reason: 'plan_purchase', source });
      if (granted) this.logger.log(`order ${order.trade_no} paid: plan ${order.plan_id} granted to user ${order.user_id}`);
      else this.logger.warn(`${paid.provider} notice replayed for order ${order.trade_no} while it was being credited`);
      return true;
    }
    const text = logText('online_top_up', { amount: order.amount, money: order.money, method: order.payment_method });
    const credited = await this.ledger.applyDelta({ userId: order.user_id, username: user?.username ?? '', reason: 'top_up', quota: order.quota, text, claim });
    // Not credited here means a concurrent copy of the notice did it: the order is paid either way.
    if (credited) this.logger.log(`credited order ${order.trade_no}: ${order.quota} quota to user ${order.user_id}`);
    else this.logger.warn(`${paid.provider} notice replayed for order ${order.trade_no} while it was being credited`);
    return true;
  }

  async history(actor: AuthenticatedUser, page: PageQuery): Promise<Page<TopUpView>> {
    const [rows, total] = await this.orders.findAndCount({ where: { user_id: actor.id }, order: { id: 'DESC' }, skip: page.offset, take: page.pageSize });
    return toPage(page, total, rows.map(toTopUpView));
  }

  /**
   * A pending order with a unique trade number; the quota is fixed now, at today's QuotaPerUnit.
   * `money` defaults to the Epay price (a provider with its own price passes it). An order for
   * a plan credits no quota: paying it grants the plan.
   */
  async createOrder(actor: AuthenticatedUser, amount: number, method: string, providerMoney?: string, plan?: PlanEntity): Promise<TopUpEntity> {
    if (!plan) this.assertMinimum(amount);
    if (!(await this.rateLimiter.hit(`top-up-order:${actor.id}`, ORDER_LIMIT_PER_USER, ORDER_WINDOW_SECONDS))) throw new AppError('payment.too_many_orders', {}, 429);
    const money = providerMoney ?? this.payableMoney(actor, amount);
    const order = this.orders.create({
      user_id: actor.id,
      amount,
      money,
      quota: plan ? 0 : Math.round(amount * this.options.get('QuotaPerUnit')),
      plan_id: plan?.id ?? 0,
      trade_no: `USR${actor.id}NO${randomAlphanumeric(16)}`,
      payment_method: method,
      status: 'pending',
      create_time: nowSeconds(),
      complete_time: 0,
    });
    return this.orders.save(order);
  }

  /** Removes an order the provider never opened, so the user's history does not list it as awaiting payment. */
  async discardPendingOrder(id: number): Promise<void> {
    await this.orders.delete({ id, status: 'pending' });
  }

  /** Where providers call back: CustomCallbackAddress, else ServerAddress. */
  callbackBase(): string {
    return this.options.get('CustomCallbackAddress') || this.options.get('ServerAddress');
  }

  private epaySettings() {
    return { PayAddress: this.options.get('PayAddress'), EpayId: this.options.get('EpayId'), EpayKey: this.options.get('EpayKey') };
  }
}

function toTopUpView(order: TopUpEntity): TopUpView {
  return {
    id: order.id,
    amount: order.amount,
    money: order.money,
    quota: order.quota,
    trade_no: order.trade_no,
    payment_method: order.payment_method,
    status: order.status,
    plan_id: order.plan_id,
    create_time: order.create_time,
    complete_time: order.complete_time,
  };
}
