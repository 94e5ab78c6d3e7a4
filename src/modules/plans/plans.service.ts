import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { nowSeconds } from '../../database/columns';
import { budgetWindowsColumn } from '../billing/budget-fields';
import { OptionsService } from '../options/options.service';
import { CreatePlanDto, UpdatePlanDto } from './dto/plan.dto';
import { PlanEntity } from './entities/plan.entity';
import { SubscriptionEntity } from './entities/subscription.entity';
import { modelsText, toPlanView } from './plan.view';
import type { PlanDeletion, PlanView } from './plan.wire';

/** The plans administrators sell, and the enabled ones users may buy. */
@Injectable()
export class PlansService {
  constructor(
    @InjectRepository(PlanEntity) private readonly plans: Repository<PlanEntity>,
    @InjectRepository(SubscriptionEntity) private readonly subscriptions: Repository<SubscriptionEntity>,
    private readonly options: OptionsService,
  ) {}

  async list(): Promise<PlanView[]> {
    return (await this.plans.find({ order: { id: 'ASC' } })).map((row) => this.view(row));
  }

  /** What the wallet page offers. */
  async listEnabled(): Promise<PlanView[]> {
    return (await this.plans.find({ where: { enabled: true }, order: { id: 'ASC' } })).map((row) => this.view(row));
  }

  async get(id: number): Promise<PlanView> {
    return this.view(await this.load(id));
  }

  async create(dto: CreatePlanDto): Promise<PlanView> {
    const now = nowSeconds();
    const inserted = await this.plans.insert({
      name: planName(dto.name),
      price_cents: Math.round(dto.price * 100),
      duration_days: dto.duration_days,
      group: dto.group?.trim() ?? '',
      total_quota: dto.total_quota ?? 0,
      budget_windows: dto.budget_windows === undefined ? null : budgetWindowsColumn(dto.budget_windows),
      models: modelsText(dto.models),
      enabled: dto.enabled ?? true,
      allow_wallet_fallback: dto.allow_wallet_fallback ?? false,
      created_at: now,
      updated_at: now,
    });
    return this.get(Number(inserted.identifiers[0].id));
  }

  /**
   * Changes what the plan sells from now on. Subscriptions already bought keep the allowance
   * they were sold (their own copy), so nothing cached about them changes here.
   */
  async update(dto: UpdatePlanDto): Promise<PlanView> {
    await this.load(dto.id);
    const changes: Partial<PlanEntity> = { updated_at: nowSeconds() };
    if (dto.name !== undefined) changes.name = planName(dto.name);
    if (dto.price !== undefined) changes.price_cents = Math.round(dto.price * 100);
    if (dto.duration_days !== undefined) changes.duration_days = dto.duration_days;
    if (dto.group !== undefined) changes.group = dto.group.trim();
    if (dto.total_quota !== undefined) changes.total_quota = dto.total_quota;
    if (dto.budget_windows !== undefined) changes.budget_windows = budgetWindowsColumn(dto.budget_windows);
    if (dto.models !== undefined) changes.models = modelsText(dto.models);
    if (dto.enabled !== undefined) changes.enabled = dto.enabled;
    if (dto.allow_wallet_fallback !== undefined) changes.allow_wallet_fallback = dto.allow_wallet_fallback;
    await this.plans.update({ id: dto.id }, changes);
    return this.get(dto.id);
  }

  /** Removes a plan nobody bought; one with subscriptions is disabled instead, so they keep their plan's history. */
  async delete(id: number): Promise<PlanDeletion> {
    await this.load(id);
    if (await this.subscriptions.exist({ where: { plan_id: id } })) {
      await this.plans.update({ id }, { enabled: false, updated_at: nowSeconds() });
      return { deleted: false, disabled: true };
    }
    await this.plans.delete({ id });
    return { deleted: true, disabled: false };
  }

  /** A plan a user may buy now (enabled), else plan.not_found. */
  async loadEnabled(id: number): Promise<PlanEntity> {
    const plan = await this.plans.findOneBy({ id, enabled: true });
    if (!plan) throw new AppError('plan.not_found');
    return plan;
  }

  view(row: PlanEntity): PlanView {
    return toPlanView(row, this.options.get('QuotaPerUnit'));
  }

  private async load(id: number): Promise<PlanEntity> {
    const plan = await this.plans.findOneBy({ id });
    if (!plan) throw new AppError('plan.not_found');
    return plan;
  }
}

function planName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new AppError('plan.invalid_name');
  return name;
}
