import { Injectable } from '@nestjs/common';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { logText } from '../logs/log-text';
import { QuotaLedgerService } from '../billing/quota-ledger.service';
import { OptionsService } from '../options/options.service';
import { PricingService } from '../pricing/pricing.service';
import { SessionsService } from '../sessions/sessions.service';
import { UpdateSelfDto, UserSettingDto } from './dto/user.dto';
import { ROLE_ROOT, UserEntity } from './entities/user.entity';
import { UsersService } from './users.service';
import { usableGroups } from './usable-groups';
import { toUserView } from './user.view';
import { GroupChoice, UserSetting, UserView } from './user.wire';

export function parseUserSetting(raw: string | null): Partial<UserSetting> {
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<UserSetting>) : {};
  } catch {
    return {};
  }
}

/** What signed-in users do to their own account. Group, quota and role are not theirs to change. */
@Injectable()
export class SelfService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly options: OptionsService,
    private readonly ledger: QuotaLedgerService,
    private readonly pricing: PricingService,
  ) {}

  async get(actor: AuthenticatedUser): Promise<UserView> {
    return (await this.users.views([await this.load(actor)], 'owner'))[0];
  }

  async update(actor: AuthenticatedUser, dto: UpdateSelfDto): Promise<UserView> {
    const user = await this.load(actor);
    const changes: { display_name?: string; password?: string } = {};
    if (dto.display_name !== undefined) changes.display_name = dto.display_name.trim() || user.username;
    if (dto.password) {
      // Accounts created through OAuth have no password yet and set their first one freely.
      if (user.password) {
        if (!dto.original_password) throw new AppError('user.original_password_required');
        if (!(await this.users.passwordMatches(user, dto.original_password))) throw new AppError('user.wrong_original_password');
      }
      changes.password = await this.users.hashPassword(dto.password);
    }
    await this.users.updateColumns(user.id, changes);
    Object.assign(user, changes);
    // A new password signs out every other browser, but not this one.
    if (dto.password) await this.sessions.destroyAllForUser(user.id, actor.sessionId);
    return toUserView(user, 'owner');
  }

  async delete(actor: AuthenticatedUser): Promise<void> {
    const user = await this.load(actor);
    if (user.role >= ROLE_ROOT) throw new AppError('user.self_delete_root');
    await this.users.softDelete(user.id);
    await this.sessions.destroyAllForUser(user.id);
  }

  async updateSetting(actor: AuthenticatedUser, dto: UserSettingDto): Promise<void> {
    const user = await this.load(actor);
    const current = parseUserSetting(user.setting);
    const next: UserSetting = {
      notify_type: dto.notify_type ?? current.notify_type ?? 'email',
      quota_warning_threshold: dto.quota_warning_threshold ?? current.quota_warning_threshold ?? 500000,
      webhook_url: (dto.webhook_url ?? current.webhook_url ?? '').trim(),
      webhook_secret: dto.webhook_secret ?? current.webhook_secret ?? '',
      notification_email: (dto.notification_email ?? current.notification_email ?? '').trim(),
      accept_unset_model_ratio_model: dto.accept_unset_model_ratio_model === undefined ? current.accept_unset_model_ratio_model === true : dto.accept_unset_model_ratio_model === true,
    };
    if (next.webhook_url && !/^https:\/\/\S+$/i.test(next.webhook_url)) throw new AppError('user.webhook_https_only');
    if (next.notify_type === 'webhook' && !next.webhook_url) throw new AppError('user.webhook_url_required');
    if (next.notification_email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(next.notification_email)) throw new AppError('validation.not_email');
    await this.users.updateColumns(user.id, { setting: JSON.stringify(next) });
  }

  async issueAccessToken(actor: AuthenticatedUser): Promise<string> {
    await this.load(actor);
    return this.users.issueAccessToken(actor.id);
  }

  async affCode(actor: AuthenticatedUser): Promise<string> {
    return this.users.ensureAffCode(await this.load(actor));
  }

  async transferAffQuota(actor: AuthenticatedUser, quota: number): Promise<void> {
    const minimum = this.options.get('QuotaPerUnit');
    if (quota < minimum) throw new AppError('user.transfer_too_small', { min: minimum });
    const user = await this.load(actor);
    const text = logText('aff_transfer', { quota });
    const moved = await this.ledger.applyDelta({ userId: user.id, username: user.username, reason: 'aff_transfer', quota, affQuota: -quota, requireCovered: true, text });
    if (!moved) throw new AppError('user.transfer_insufficient');
  }

  /**
   * Groups the user may pick for tokens: the usable groups plus their own, each with the ratio
   * this user is billed at there (GroupGroupRatio first, as the relay bills it).
   */
  async groups(actor: AuthenticatedUser): Promise<Record<string, GroupChoice>> {
    const user = await this.load(actor);
    const result: Record<string, GroupChoice> = {};
    for (const [group, desc] of Object.entries(usableGroups(this.options, user.group))) result[group] = { desc, ratio: this.pricing.groupRatio(user.group, group).ratio };
    return result;
  }

  private async load(actor: AuthenticatedUser): Promise<UserEntity> {
    const user = await this.users.findById(actor.id);
    if (!user) throw new AppError('user.not_found');
    return user;
  }
}
