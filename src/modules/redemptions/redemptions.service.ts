import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, Repository } from 'typeorm';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { randomAlphanumeric } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { logText } from '../logs/log-text';
import { likeContains, Page, PageQuery, toPage } from '../../common/http/pagination';
import { likeCondition } from '../../database/dialect';
import { RateLimiterService } from '../../common/rate-limit/rate-limiter.service';
import { nowSeconds } from '../../database/columns';
import { AuditService, fieldChanges } from '../audit/audit.service';
import { LedgerRefusedError, QuotaLedgerService } from '../billing/quota-ledger.service';
import { PlansService } from '../plans/plans.service';
import { SubscriptionsService } from '../plans/subscriptions.service';
import { CreateRedemptionDto, DEFAULT_REDEMPTION_QUOTA, UpdateRedemptionDto } from './dto/redemption.dto';
import { REDEMPTION_STATUS_DISABLED, REDEMPTION_STATUS_UNUSED, REDEMPTION_STATUS_USED, RedemptionEntity } from './entities/redemption.entity';
import { toRedemptionView } from './redemption.view';
import { RedemptionView } from './redemption.wire';

const KEY_LENGTH = 32;
/** Against key guessing: attempts per user and per address in a minute. */
const REDEEM_LIMIT_PER_USER = 10;
const REDEEM_LIMIT_PER_IP = 100;
const REDEEM_WINDOW_SECONDS = 60;
/** What the audit log compares of a code (never its key). */
const AUDITED_FIELDS = ['name', 'quota', 'status'] as const satisfies readonly (keyof RedemptionEntity)[];

/** Redemption codes: administrators make and manage them, users redeem them once. */
@Injectable()
export class RedemptionsService {
  constructor(
    @InjectRepository(RedemptionEntity) private readonly redemptions: Repository<RedemptionEntity>,
    private readonly ledger: QuotaLedgerService,
    private readonly rateLimiter: RateLimiterService,
    private readonly audit: AuditService,
    private readonly plans: PlansService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  async list(page: PageQuery): Promise<Page<RedemptionView>> {
    const [rows, total] = await this.redemptions.findAndCount({ order: { id: 'DESC' }, skip: page.offset, take: page.pageSize });
    return toPage(page, total, rows.map(toRedemptionView));
  }

  /** Keyword matches the id exactly, the whole key, or the name as a literal substring. */
  async search(keyword: string, page: PageQuery): Promise<Page<RedemptionView>> {
    const query = this.redemptions.createQueryBuilder('redemption');
    const trimmed = keyword.trim();
    if (trimmed) {
      query.where(
        new Brackets((where) => {
          if (/^\d{1,9}$/.test(trimmed)) where.orWhere('redemption.id = :id', { id: Number(trimmed) });
          where.orWhere('redemption.key = :key', { key: trimmed });
          where.orWhere(likeCondition(query.connection, 'redemption.name', 'name'), { name: likeContains(trimmed) });
        }),
      );
    }
    const [rows, total] = await query.orderBy('redemption.id', 'DESC').skip(page.offset).take(page.pageSize).getManyAndCount();
    return toPage(page, total, rows.map(toRedemptionView));
  }

  async get(id: number): Promise<RedemptionView> {
    return toRedemptionView(await this.load(id));
  }

  /** Creates `count` codes at once; answers their keys. */
  async create(actor: AuthenticatedUser, dto: CreateRedemptionDto): Promise<string[]> {
    const name = dto.name.trim();
    if (!name) throw new AppError('redemption.invalid_name');
    // A plan code is minted only for a plan on sale; redeeming it later grants the plan even if it was disabled since.
    const plan = dto.plan_id ? await this.plans.loadEnabled(dto.plan_id) : undefined;
    const rows = Array.from({ length: dto.count ?? 1 }, () => ({
      user_id: actor.id,
      name,
      key: randomAlphanumeric(KEY_LENGTH),
      status: REDEMPTION_STATUS_UNUSED,
      quota: plan ? 0 : (dto.quota ?? DEFAULT_REDEMPTION_QUOTA),
      plan_id: plan?.id ?? 0,
      created_time: nowSeconds(),
    }));
    // 62^32 keys: a collision would fail the unique index and the whole batch, never pass silently.
    const inserted = await this.redemptions.insert(rows);
    // The keys are what a code is worth: the audit log has the ids, never a key.
    const ids = inserted.identifiers.map((identifier) => Number(identifier.id));
    await this.audit.record(actor, { entity: 'redemption', entityId: ids, action: 'create', changes: { name: { from: null, to: name }, quota: { from: null, to: rows[0].quota }, count: { from: null, to: rows.length } } });
    return rows.map((row) => row.key);
  }

  /** Name and quota change only while the code is unused (status 1, as the spec says); the status only with status_only. */
  async update(dto: UpdateRedemptionDto, actor: AuthenticatedUser): Promise<RedemptionView> {
    const changes: Partial<RedemptionEntity> = {};
    if (dto.name !== undefined) {
      changes.name = dto.name.trim();
      if (!changes.name) throw new AppError('redemption.invalid_name');
    }
    if (dto.quota !== undefined) changes.quota = dto.quota;
    await this.updateWhile(actor, dto.id, [REDEMPTION_STATUS_UNUSED], changes, editRefusal);
    return this.get(dto.id);
  }

  async updateStatus(id: number, status: number | undefined, actor: AuthenticatedUser): Promise<RedemptionView> {
    if (status !== REDEMPTION_STATUS_UNUSED && status !== REDEMPTION_STATUS_DISABLED) throw new AppError('redemption.invalid_status');
    await this.updateWhile(actor, id, [REDEMPTION_STATUS_UNUSED, REDEMPTION_STATUS_DISABLED], { status }, () => 'redemption.used_cannot_enable');
    return this.get(id);
  }

  async delete(id: number, actor: AuthenticatedUser): Promise<void> {
    const code = await this.load(id);
    const result = await this.redemptions.delete({ id });
    if (!result.affected) throw new AppError('redemption.not_found');
    await this.audit.record(actor, { entity: 'redemption', entityId: id, action: 'delete', changes: fieldChanges(code, {} as RedemptionEntity, AUDITED_FIELDS) });
  }

  /**
   * Credits the code's quota to the caller, exactly once: the status moves 1 → 3 by a
   * conditional update inside the ledger's crediting transaction, so of any number of
   * simultaneous attempts one commits and the others find the code used.
   */
  async redeem(actor: AuthenticatedUser, rawKey: string, ip: string): Promise<number> {
    const key = rawKey.trim();
    if (!key) throw new AppError('redemption.key_required');
    const withinUserLimit = await this.rateLimiter.hit(`redeem:user:${actor.id}`, REDEEM_LIMIT_PER_USER, REDEEM_WINDOW_SECONDS);
    const withinIpLimit = await this.rateLimiter.hit(`redeem:ip:${ip}`, REDEEM_LIMIT_PER_IP, REDEEM_WINDOW_SECONDS);
    if (!withinUserLimit || !withinIpLimit) throw new AppError('redemption.too_many_attempts', {}, 429);
    const code = key.length === KEY_LENGTH ? await this.redemptions.findOneBy({ key }) : null;
    if (!code) throw new AppError('redemption.invalid_key');
    assertRedeemable(code.status);
    const claim = async (manager: EntityManager): Promise<boolean> => {
      const result = await manager.update(
        RedemptionEntity,
        { id: code.id, status: REDEMPTION_STATUS_UNUSED, quota: code.quota },
        { status: REDEMPTION_STATUS_USED, used_user_id: actor.id, redeemed_time: nowSeconds() },
      );
      return (result.affected ?? 0) > 0;
    };
    const text = logText('redeemed', { quota: code.quota, id: code.id });
    let credited: boolean;
    try {
      credited =
        code.plan_id > 0
          ? await this.subscriptions.grantClaimed({ userId: actor.id, username: actor.username, planId: code.plan_id, claim, reason: 'redeem', source: { redemption_id: code.id } })
          : await this.ledger.applyDelta({ userId: actor.id, username: actor.username, reason: 'redeem', quota: code.quota, text, claim });
    } catch (error) {
      if (error instanceof LedgerRefusedError) throw new AppError('user.not_found');
      throw error;
    }
    if (!credited) {
      // Someone else got there first, or the code changed since it was read.
      const now = await this.redemptions.findOneBy({ id: code.id });
      assertRedeemable(now?.status ?? REDEMPTION_STATUS_USED);
      throw new AppError('redemption.changed_retry');
    }
    return code.quota;
  }

  /** Applies `changes` only while the code's status is one of `allowed`; `refusal` names the error for the status found. */
  private async updateWhile(actor: AuthenticatedUser, id: number, allowed: number[], changes: Partial<RedemptionEntity>, refusal: (status: number) => RedemptionRefusal): Promise<void> {
    const code = await this.load(id);
    if (!allowed.includes(code.status)) throw new AppError(refusal(code.status));
    if (Object.keys(changes).length === 0) return;
    // Conditional, so a redemption that lands in between is not undone.
    const result = await this.redemptions
      .createQueryBuilder()
      .update(RedemptionEntity)
      .set(changes)
      .where('id = :id AND status IN (:...allowed)', { id, allowed })
      .execute();
    if (!result.affected) throw new AppError(refusal((await this.load(id)).status));
    const audited = fieldChanges(code, { ...code, ...changes }, AUDITED_FIELDS);
    if (Object.keys(audited).length > 0) await this.audit.record(actor, { entity: 'redemption', entityId: id, action: 'update', changes: audited });
  }

  private async load(id: number): Promise<RedemptionEntity> {
    const code = await this.redemptions.findOneBy({ id });
    if (!code) throw new AppError('redemption.not_found');
    return code;
  }
}

type RedemptionRefusal = 'redemption.used_cannot_edit' | 'redemption.disabled_cannot_edit' | 'redemption.used_cannot_enable';

function editRefusal(status: number): RedemptionRefusal {
  return status === REDEMPTION_STATUS_USED ? 'redemption.used_cannot_edit' : 'redemption.disabled_cannot_edit';
}

function assertRedeemable(status: number): void {
  if (status === REDEMPTION_STATUS_USED) throw new AppError('redemption.already_used');
  if (status === REDEMPTION_STATUS_DISABLED) throw new AppError('redemption.disabled');
}
