import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import bcrypt from 'bcryptjs';
import { Brackets, EntityManager, IsNull, Repository } from 'typeorm';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { randomAlphanumeric, sha256Hex } from '../../common/crypto/secret-box';
import { likeContains, Page, PageQuery, toPage } from '../../common/http/pagination';
import { likeCondition } from '../../database/dialect';
import { nowSeconds } from '../../database/columns';
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_STATUS_DISABLED, USER_STATUS_ENABLED, UserEntity } from './entities/user.entity';
import { parseBudgetWindows } from '../billing/budget-periods';
import { BudgetWindowService } from '../billing/budget-window.service';
import { toUserView } from './user.view';
import { UserView } from './user.wire';

const BCRYPT_ROUNDS = 10;
/** Compared against when a username is unknown, so a miss takes as long as a wrong password. */
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_ROUNDS);

/** What profile, settings and admin edits may write. */
export type EditableUserColumn = 'username' | 'display_name' | 'password' | 'group' | 'email' | 'remark' | 'setting' | 'budget_windows' | 'rpm_limit' | 'tpm_limit' | 'scim_external_id';

/** Columns holding the id of a bound third-party account. */
export type IdentityColumn = 'github_id' | 'oidc_id' | 'linux_do_id' | 'wechat_id' | 'telegram_id' | 'saml_id';

export interface NewUser {
  username: string;
  /** From hashPassword(), computed before any transaction opens (see Transactions). */
  passwordHash: string;
  display_name?: string;
  role?: number;
  group?: string;
  inviter_id?: number;
  email?: string;
  /** The third-party account the user signed up with. */
  identity?: { column: IdentityColumn; value: string };
  /** The identity provider's id of an account provisioned over SCIM. */
  scim_external_id?: string;
}

/** Name of the cache other modules keep of users (the relay's); invalidated with the user id. */
export const USERS_CACHE = CACHE_NAMES.users;

/** Accounts: lookups, creation, profile and balance changes. */
@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(UserEntity) private readonly repository: Repository<UserEntity>,
    private readonly cacheSync: CacheSyncService,
    private readonly budgets: BudgetWindowService,
  ) {}

  /** Users as views, with their budget windows' use (one read for the page). */
  async views(users: UserEntity[], audience: 'owner' | 'admin' = 'admin'): Promise<UserView[]> {
    const usage = await this.budgets.usage('user', users.map((user) => ({ id: user.id, windows: parseBudgetWindows(user.budget_windows) })));
    return users.map((user) => toUserView(user, audience, usage.get(user.id)));
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.repository.findOneBy({ id });
  }

  findByIdIncludingDeleted(id: number): Promise<UserEntity | null> {
    return this.repository.findOne({ where: { id }, withDeleted: true });
  }

  async findByAccessToken(token: string): Promise<UserEntity | null> {
    if (!token) return null;
    return this.repository.findOneBy({ access_token: sha256Hex(token) });
  }

  findByAffCode(code: string): Promise<UserEntity | null> {
    return this.repository.findOneBy({ aff_code: code });
  }

  /** Compared case-insensitively: addresses are stored lower-cased by verification and binding. */
  findByEmail(email: string): Promise<UserEntity | null> {
    if (!email) return Promise.resolve(null);
    return this.repository.findOne({ where: { email: email.toLowerCase() }, order: { id: 'ASC' } });
  }

  /** Deleted accounts keep their address, so it cannot be taken over by a new one. */
  async emailTaken(email: string): Promise<boolean> {
    return (await this.repository.count({ where: { email: email.toLowerCase() }, withDeleted: true })) > 0;
  }

  /** The account a third-party id is bound to, including a deleted one (which may not sign in). */
  findByIdentity(column: IdentityColumn, value: string, manager: EntityManager = this.repository.manager): Promise<UserEntity | null> {
    return manager.findOne(UserEntity, { where: { [column]: value }, withDeleted: true, order: { id: 'ASC' } });
  }

  async setIdentity(id: number, column: IdentityColumn | 'email', value: string): Promise<void> {
    await this.repository.update({ id }, { [column]: value });
  }

  async setPasswordHash(id: number, passwordHash: string): Promise<void> {
    await this.repository.update({ id }, { password: passwordHash });
  }

  /** Signs in by username or email; answers null for every kind of mismatch alike. */
  async verifyCredentials(login: string, password: string): Promise<UserEntity | null> {
    const user = await this.repository
      .createQueryBuilder('user')
      .where('user.username = :login', { login })
      .orWhere(new Brackets((where) => where.where('user.email = :login', { login }).andWhere("user.email <> ''")))
      .orderBy('user.id', 'ASC')
      .getOne();
    const matches = await bcrypt.compare(password, user?.password || DUMMY_HASH);
    return user && matches ? user : null;
  }

  /** Case-insensitive on both databases, like the unique index behind it; deleted accounts keep their name. */
  async usernameTaken(username: string, manager: EntityManager = this.repository.manager): Promise<boolean> {
    const count = await manager.createQueryBuilder(UserEntity, 'user').withDeleted().where('LOWER(user.username) = LOWER(:username)', { username }).getCount();
    return count > 0;
  }

  async hashPassword(password: string): Promise<string> {
    return bcrypt.hash(password, BCRYPT_ROUNDS);
  }

  passwordMatches(user: UserEntity, password: string): Promise<boolean> {
    return bcrypt.compare(password, user.password || DUMMY_HASH);
  }

  /** Inserts a user; the caller has already checked the username is free (inside its transaction). */
  async create(input: NewUser, manager: EntityManager = this.repository.manager): Promise<UserEntity> {
    const user = manager.create(UserEntity, {
      username: input.username,
      password: input.passwordHash,
      display_name: input.display_name || input.username,
      role: input.role ?? ROLE_USER,
      status: USER_STATUS_ENABLED,
      group: input.group ?? 'default',
      quota: 0,
      inviter_id: input.inviter_id ?? 0,
      email: input.email ?? '',
      scim_external_id: input.scim_external_id ?? '',
      ...(input.identity ? { [input.identity.column]: input.identity.value } : {}),
      aff_code: await this.newAffCode(manager),
      created_time: nowSeconds(),
      access_token: null,
      setting: null,
    });
    return manager.save(user);
  }

  private async newAffCode(manager: EntityManager): Promise<string> {
    for (;;) {
      const code = randomAlphanumeric(6);
      if ((await manager.count(UserEntity, { where: { aff_code: code }, withDeleted: true })) === 0) return code;
    }
  }

  async list(page: PageQuery): Promise<Page<UserView>> {
    const [rows, total] = await this.repository.findAndCount({ withDeleted: true, order: { id: 'DESC' }, skip: page.offset, take: page.pageSize });
    return toPage(page, total, await this.views(rows));
  }

  /** Keyword matches the id exactly, or username, display name and email as a literal substring. */
  async search(keyword: string, group: string, page: PageQuery): Promise<Page<UserView>> {
    const query = this.repository.createQueryBuilder('user').withDeleted();
    const trimmed = keyword.trim();
    if (trimmed) {
      query.andWhere(
        new Brackets((where) => {
          if (/^\d{1,9}$/.test(trimmed)) where.orWhere('user.id = :id', { id: Number(trimmed) });
          const pattern = likeContains(trimmed);
          for (const column of ['username', 'display_name', 'email']) where.orWhere(likeCondition(query.connection, `user.${column}`, 'pattern'), { pattern });
        }),
      );
    }
    if (group.trim()) query.andWhere('user.group = :group', { group: group.trim() });
    const [rows, total] = await query.orderBy('user.id', 'DESC').skip(page.offset).take(page.pageSize).getManyAndCount();
    return toPage(page, total, await this.views(rows));
  }

  /**
   * Writes only the columns given, so a balance that moved since the row was read stays as it
   * is. Balances are not among them: they move through the billing ledger.
   */
  async updateColumns(id: number, columns: Partial<Pick<UserEntity, EditableUserColumn>>): Promise<void> {
    if (Object.keys(columns).length === 0) return;
    await this.repository.update({ id }, columns);
    await this.cacheSync.invalidate(USERS_CACHE, String(id));
  }

  async setStatus(id: number, status: typeof USER_STATUS_ENABLED | typeof USER_STATUS_DISABLED): Promise<void> {
    await this.repository.update({ id }, { status });
    await this.cacheSync.invalidate(USERS_CACHE, String(id));
  }

  async setRole(id: number, role: typeof ROLE_USER | typeof ROLE_ADMIN | typeof ROLE_ROOT): Promise<void> {
    await this.repository.update({ id }, { role });
    await this.cacheSync.invalidate(USERS_CACHE, String(id));
  }

  async softDelete(id: number): Promise<void> {
    await this.repository.update({ id }, { access_token: null });
    await this.repository.softDelete({ id });
    await this.cacheSync.invalidate(USERS_CACHE, String(id));
  }

  /** A new system access token: returned once, stored only as its hash. */
  async issueAccessToken(id: number): Promise<string> {
    const token = randomAlphanumeric(32);
    await this.repository.update({ id }, { access_token: sha256Hex(token) });
    return token;
  }

  async ensureAffCode(user: UserEntity): Promise<string> {
    if (user.aff_code) return user.aff_code;
    const code = await this.newAffCode(this.repository.manager);
    await this.repository.update({ id: user.id }, { aff_code: code });
    return code;
  }

  /** Counts one more invited user; the reward itself moves through the ledger. */
  async countInvitation(inviterId: number, manager: EntityManager): Promise<void> {
    await manager.createQueryBuilder().update(UserEntity).set({ aff_count: () => 'aff_count + 1' }).where('id = :id', { id: inviterId }).execute();
  }

  async rootExists(): Promise<boolean> {
    return (await this.repository.count({ where: { role: ROLE_ROOT, deleted_at: IsNull() } })) > 0;
  }
}
