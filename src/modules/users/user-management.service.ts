import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { Page, PageQuery } from '../../common/http/pagination';
import { logText, type LogText } from '../logs/log-text';
import { Transactions } from '../../database/transactions';
import { OptionsService } from '../options/options.service';
import { SessionsService } from '../sessions/sessions.service';
import { CreateUserDto, ManageAction, UpdateUserDto } from './dto/user.dto';
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_STATUS_DISABLED, USER_STATUS_ENABLED, UserEntity } from './entities/user.entity';
import { EditableUserColumn, NewUser, UsersService } from './users.service';
import { QuotaLedgerService } from '../billing/quota-ledger.service';
import { AuditService, fieldChanges, secretChange } from '../audit/audit.service';
import { budgetWindowsColumn } from '../billing/budget-fields';
import { UserView } from './user.wire';
import { SubscriptionsService } from '../plans/subscriptions.service';
import type { SubscriptionView } from '../plans/plan.wire';

/** What the audit log compares of an account an administrator edits (the password only as changed; quota through the ledger). */
const AUDITED_FIELDS = ['username', 'display_name', 'group', 'email', 'remark', 'budget_windows', 'rpm_limit', 'tpm_limit'] as const satisfies readonly (keyof UserEntity)[];

/**
 * What administrators do to accounts, and the creation of every account (registration,
 * third-party sign-in, an administrator's), so each gets the same welcome quota and invitation
 * rewards through the ledger. The rules: nobody acts on the same or a higher role
 * (root may act on admins), only root promotes to admin, and root itself can be neither
 * disabled, deleted nor demoted.
 */
@Injectable()
export class UserManagementService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly options: OptionsService,
    private readonly transactions: Transactions,
    private readonly ledger: QuotaLedgerService,
    private readonly audit: AuditService,
    private readonly plans: SubscriptionsService,
  ) {}

  list(page: PageQuery): Promise<Page<UserView>> {
    return this.users.list(page);
  }

  search(keyword: string, group: string, page: PageQuery): Promise<Page<UserView>> {
    return this.users.search(keyword, group, page);
  }

  async get(actor: AuthenticatedUser, id: number): Promise<UserView> {
    return (await this.users.views([await this.outranked(actor, id)]))[0];
  }

  /** The user's subscriptions as the user's own wallet page shows them, for the administrator's user editor. */
  async subscriptions(actor: AuthenticatedUser, id: number): Promise<SubscriptionView[]> {
    await this.outranked(actor, id);
    return this.plans.listOf(id);
  }

  async create(actor: AuthenticatedUser, dto: CreateUserDto): Promise<void> {
    const role = dto.role ?? ROLE_USER;
    if (![ROLE_USER, ROLE_ADMIN].includes(role) || role >= actor.role) throw new AppError('user.cannot_create_same_or_higher');
    const username = dto.username.trim();
    const passwordHash = await this.users.hashPassword(dto.password);
    // A new user is a new user however the account was made: new-api credits QuotaForNewUser here too.
    const created = await this.createAccount({ username, passwordHash, display_name: dto.display_name?.trim(), role }, undefined, async (manager) => {
      if (await this.users.usernameTaken(username, manager)) throw new AppError('user.username_taken');
    });
    await this.audit.record(actor, { entity: 'user', entityId: created.id, action: 'create', changes: { username: { from: null, to: username }, role: { from: null, to: role }, password: secretChange() } });
  }

  /**
   * Creates an account, with the welcome quota and, when `affCode` names an inviter, the
   * invitee's bonus and the inviter's referral reward, all through the ledger (each with its
   * log row) in one transaction. `check` runs first inside it (uniqueness that must not race).
   */
  async createAccount(user: NewUser, affCode: string | undefined, check?: (manager: EntityManager) => Promise<void>): Promise<UserEntity> {
    const code = affCode?.trim();
    const inviter = code ? await this.users.findByAffCode(code) : null;
    const quotaForNewUser = this.options.get('QuotaForNewUser');
    const quotaForInvitee = inviter ? this.options.get('QuotaForInvitee') : 0;
    const quotaForInviter = inviter ? this.options.get('QuotaForInviter') : 0;
    return this.transactions.run(async (manager) => {
      await check?.(manager);
      const created = await this.users.create({ ...user, inviter_id: inviter?.id ?? 0 }, manager);
      const credit = (reason: 'new_user' | 'invite_reward', quota: number, text: LogText) =>
        this.ledger.applyDelta({ userId: created.id, username: created.username, reason, quota, text }, manager);
      if (quotaForNewUser > 0) await credit('new_user', quotaForNewUser, logText('new_user_quota', { quota: quotaForNewUser }));
      if (quotaForInvitee > 0) await credit('invite_reward', quotaForInvitee, logText('invitee_reward', { quota: quotaForInvitee }));
      if (inviter) {
        await this.users.countInvitation(inviter.id, manager);
        if (quotaForInviter > 0) {
          const text = logText('inviter_reward', { invitee: created.username, quota: quotaForInviter });
          await this.ledger.applyDelta({ userId: inviter.id, username: inviter.username, reason: 'invite_reward', quota: 0, affQuota: quotaForInviter, text }, manager);
        }
      }
      return created;
    });
  }

  async update(actor: AuthenticatedUser, dto: UpdateUserDto): Promise<UserView> {
    const target = await this.users.findById(dto.id);
    if (!target) throw new AppError('user.not_found');
    if (target.id !== actor.id) this.assertOutranks(actor, target);
    // An admin editing itself passes the outrank check, but its own balance and group are root's to change.
    const changesQuotaOrGroup = (dto.quota !== undefined && dto.quota !== target.quota) || (dto.group !== undefined && dto.group !== target.group);
    if (changesQuotaOrGroup && target.role >= ROLE_ADMIN && actor.role < ROLE_ROOT) throw new AppError('user.only_root_changes_admin');
    if (dto.group !== undefined && dto.group !== target.group) this.assertGroupExists(dto.group);
    const changes: Partial<Pick<UserEntity, EditableUserColumn>> = {};
    if (dto.username !== undefined && dto.username.trim() !== target.username) {
      if (await this.users.usernameTaken(dto.username.trim())) throw new AppError('user.username_taken');
      changes.username = dto.username.trim();
    }
    if (dto.display_name !== undefined) changes.display_name = dto.display_name.trim() || changes.username || target.username;
    if (dto.group !== undefined) changes.group = dto.group;
    if (dto.email !== undefined) changes.email = dto.email.trim();
    if (dto.remark !== undefined) changes.remark = dto.remark;
    if (dto.budget_windows !== undefined) changes.budget_windows = budgetWindowsColumn(dto.budget_windows);
    if (dto.rpm_limit !== undefined) changes.rpm_limit = dto.rpm_limit;
    if (dto.tpm_limit !== undefined) changes.tpm_limit = dto.tpm_limit;
    const passwordChanged = !!dto.password;
    if (passwordChanged) changes.password = await this.users.hashPassword(dto.password!);
    await this.users.updateColumns(target.id, changes);
    const audited = fieldChanges(target, { ...target, ...changes }, AUDITED_FIELDS);
    if (passwordChanged) audited.password = secretChange();
    if (Object.keys(audited).length > 0) await this.audit.record(actor, { entity: 'user', entityId: target.id, action: 'update', changes: audited });
    Object.assign(target, changes);
    if (dto.quota !== undefined) target.quota = await this.adjustQuota(actor, target, dto.quota, dto.original_quota ?? target.quota);
    if (passwordChanged && target.id !== actor.id) await this.sessions.destroyAllForUser(target.id);
    return (await this.users.views([target]))[0];
  }

  async manage(actor: AuthenticatedUser, id: number, action: ManageAction): Promise<{ status: number; role: number }> {
    const target = await this.users.findById(id);
    if (!target) throw new AppError('user.not_found');
    this.assertOutranks(actor, target);
    const before = { ...target };
    switch (action) {
      case 'disable':
        if (target.role >= ROLE_ROOT) throw new AppError('user.root_cannot_be_disabled');
        await this.users.setStatus(target.id, USER_STATUS_DISABLED);
        await this.sessions.destroyAllForUser(target.id);
        target.status = USER_STATUS_DISABLED;
        break;
      case 'enable':
        await this.users.setStatus(target.id, USER_STATUS_ENABLED);
        target.status = USER_STATUS_ENABLED;
        break;
      case 'delete':
        if (target.role >= ROLE_ROOT) throw new AppError('user.root_cannot_be_deleted');
        await this.users.softDelete(target.id);
        await this.sessions.destroyAllForUser(target.id);
        break;
      case 'promote':
        if (actor.role < ROLE_ROOT) throw new AppError('user.only_root_can_promote');
        if (target.role >= ROLE_ADMIN) throw new AppError('user.already_admin');
        await this.users.setRole(target.id, ROLE_ADMIN);
        target.role = ROLE_ADMIN;
        break;
      case 'demote':
        if (target.role >= ROLE_ROOT) throw new AppError('user.root_cannot_be_demoted');
        if (target.role === ROLE_USER) throw new AppError('user.already_common');
        await this.users.setRole(target.id, ROLE_USER);
        target.role = ROLE_USER;
        break;
    }
    await this.audit.record(actor, { entity: 'user', entityId: target.id, action, changes: fieldChanges(before, target, ['status', 'role']) });
    return { status: target.status, role: target.role };
  }

  /**
   * The admin asked for `to` while looking at `from`: the difference moves as a delta, so
   * spending that landed meanwhile is kept, and the manage log row says when it did.
   * Answers the balance afterwards.
   */
  private async adjustQuota(actor: AuthenticatedUser, target: UserEntity, to: number, from: number): Promise<number> {
    const delta = to - from;
    if (delta === 0) return target.quota;
    const current = target.quota;
    const text =
      current === from
        ? logText('admin_quota_changed', { from, to })
        : logText('admin_quota_moved_meanwhile', { from, to, current, delta: delta > 0 ? `+${delta}` : String(delta) });
    // The audit row goes in the ledger's transaction, naming the log row the change wrote.
    const onLogged = (logId: number, manager: EntityManager) => this.audit.record(actor, { entity: 'user', entityId: target.id, action: 'update', changes: { quota: { from: current, to: current + delta } }, logId }, manager);
    await this.ledger.applyDelta({ userId: target.id, username: target.username, reason: 'admin_adjustment', quota: delta, text, onLogged });
    return current + delta;
  }

  /** Admins act only on lower roles; root acts on everyone below root. */
  /** The account `id` (deleted ones too), if the actor outranks it. */
  private async outranked(actor: AuthenticatedUser, id: number): Promise<UserEntity> {
    const target = await this.users.findByIdIncludingDeleted(id);
    if (!target) throw new AppError('user.not_found');
    this.assertOutranks(actor, target);
    return target;
  }

  private assertOutranks(actor: AuthenticatedUser, target: UserEntity): void {
    if (target.role >= actor.role) {
      if (target.role >= ROLE_ROOT && actor.role >= ROLE_ROOT) {
        // Root looking at or acting on itself: the per-action rules decide.
        return;
      }
      throw new AppError('user.cannot_manage_same_or_higher');
    }
  }

  private assertGroupExists(group: string): void {
    const groups = this.options.get('GroupRatio');
    if (!(group in groups)) throw new AppError('user.invalid_group', { group });
  }
}
