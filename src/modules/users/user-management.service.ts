import { Injectable } from '@nestjs/common';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { Page, PageQuery } from '../../common/http/pagination';
import { translate } from '../../common/i18n/catalogue';
import { Transactions } from '../../database/transactions';
import { LogsService } from '../logs/logs.service';
import { OptionsService } from '../options/options.service';
import { SessionsService } from '../sessions/sessions.service';
import { CreateUserDto, ManageAction, UpdateUserDto } from './dto/user.dto';
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_STATUS_DISABLED, USER_STATUS_ENABLED, UserEntity } from './entities/user.entity';
import { UsersService } from './users.service';
import { toUserView } from './user.view';
import { UserView } from './user.wire';

/**
 * What administrators do to accounts. The rules: nobody acts on the same or a higher role
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
    private readonly logs: LogsService,
  ) {}

  list(page: PageQuery): Promise<Page<UserView>> {
    return this.users.list(page);
  }

  search(keyword: string, group: string, page: PageQuery): Promise<Page<UserView>> {
    return this.users.search(keyword, group, page);
  }

  async get(actor: AuthenticatedUser, id: number): Promise<UserView> {
    const target = await this.users.findByIdIncludingDeleted(id);
    if (!target) throw new AppError('user.not_found');
    this.assertOutranks(actor, target);
    return toUserView(target);
  }

  async create(actor: AuthenticatedUser, dto: CreateUserDto): Promise<void> {
    const role = dto.role ?? ROLE_USER;
    if (![ROLE_USER, ROLE_ADMIN].includes(role) || role >= actor.role) throw new AppError('user.cannot_create_same_or_higher');
    const username = dto.username.trim();
    const passwordHash = await this.users.hashPassword(dto.password);
    await this.transactions.run(async (manager) => {
      if (await this.users.usernameTaken(username, manager)) throw new AppError('user.username_taken');
      await this.users.create({ username, passwordHash, display_name: dto.display_name?.trim(), role }, manager);
    });
  }

  async update(actor: AuthenticatedUser, dto: UpdateUserDto): Promise<UserView> {
    const target = await this.users.findById(dto.id);
    if (!target) throw new AppError('user.not_found');
    if (target.id !== actor.id) this.assertOutranks(actor, target);
    if (dto.group !== undefined && dto.group !== target.group) this.assertGroupExists(dto.group);
    if (dto.username !== undefined && dto.username.trim() !== target.username) {
      if (await this.users.usernameTaken(dto.username.trim())) throw new AppError('user.username_taken');
      target.username = dto.username.trim();
    }
    if (dto.display_name !== undefined) target.display_name = dto.display_name.trim() || target.username;
    if (dto.group !== undefined) target.group = dto.group;
    const previousQuota = target.quota;
    if (dto.quota !== undefined) target.quota = dto.quota;
    if (dto.email !== undefined) target.email = dto.email.trim();
    if (dto.remark !== undefined) target.remark = dto.remark;
    const passwordChanged = !!dto.password;
    if (passwordChanged) target.password = await this.users.hashPassword(dto.password!);
    await this.users.save(target);
    if (target.quota !== previousQuota) {
      // Log rows are stored in one language: the product's default, Chinese.
      await this.logs.recordManage(target, translate('log.admin_quota_changed', 'zh', { from: previousQuota, to: target.quota }));
    }
    if (passwordChanged && target.id !== actor.id) await this.sessions.destroyAllForUser(target.id);
    return toUserView(target);
  }

  async manage(actor: AuthenticatedUser, id: number, action: ManageAction): Promise<{ status: number; role: number }> {
    const target = await this.users.findById(id);
    if (!target) throw new AppError('user.not_found');
    this.assertOutranks(actor, target);
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
    return { status: target.status, role: target.role };
  }

  /** Admins act only on lower roles; root acts on everyone below root. */
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
