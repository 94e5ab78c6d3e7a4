import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { randomAlphanumeric, SECRET_BOX, SecretBox } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { likeContains, Page, PageQuery, toPage } from '../../common/http/pagination';
import { likeCondition } from '../../database/dialect';
import { nowSeconds } from '../../database/columns';
import { Transactions } from '../../database/transactions';
import { splitList } from '../channels/channel-fields';
import { OptionsService } from '../options/options.service';
import { QuotaLedgerService } from '../billing/quota-ledger.service';
import { budgetWindowsColumn } from '../billing/budget-fields';
import { parseBudgetWindows } from '../billing/budget-periods';
import { BudgetWindowService } from '../billing/budget-window.service';
import { mayUseGroup } from '../users/usable-groups';
import { normaliseAllowIps } from './allow-ips';
import { CreateTokenDto, UpdateTokenDto } from './dto/token.dto';
import { TOKEN_STATUS_DISABLED, TOKEN_STATUS_ENABLED, TokenEntity } from './entities/token.entity';
import { modelFallbacksColumn, TOKEN_KEY_PREFIX, toTokenView } from './token.view';
import { TokenView } from './token.wire';

const TOKEN_KEY_LENGTH = 48;
const NAME_SUFFIX_LENGTH = 6;
const NEVER_EXPIRES = -1;

/**
 * A user's own API tokens. Every query is scoped by the caller's id, so another user's token
 * is "not found" whichever way it is asked for. Keys are stored encrypted and found by their
 * keyed hash (see TokenEntity); rows read here are revealed (decrypted) before any use.
 */
@Injectable()
export class TokensService implements OnModuleInit {
  constructor(
    @InjectRepository(TokenEntity) private readonly tokens: Repository<TokenEntity>,
    private readonly transactions: Transactions,
    private readonly cacheSync: CacheSyncService,
    private readonly options: OptionsService,
    private readonly ledger: QuotaLedgerService,
    private readonly budgets: BudgetWindowService,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
  ) {}

  /** Keys written in the clear by an older version are hashed and encrypted once, at start (on SQLite and MySQL alike). */
  async onModuleInit(): Promise<void> {
    const plain = await this.tokens.find({ select: { id: true, key: true }, where: { key_hash: IsNull() } });
    for (const row of plain) {
      await this.tokens.update({ id: row.id, key: row.key, key_hash: IsNull() }, this.sealedKey(this.secretBox.decrypt(row.key)));
    }
  }

  async list(actor: AuthenticatedUser, page: PageQuery): Promise<Page<TokenView>> {
    const [rows, total] = await this.tokens.findAndCount({ where: { user_id: actor.id }, order: { id: 'DESC' }, skip: page.offset, take: page.pageSize });
    return toPage(page, total, await this.views(rows.map((row) => this.reveal(row))));
  }

  /**
   * keyword: a literal substring of the name; token: of the key, with or without `sk-`. Keys
   * are encrypted, so a key search decrypts the caller's own tokens (a handful) and filters them here.
   */
  async search(actor: AuthenticatedUser, keyword: string, token: string, page: PageQuery): Promise<Page<TokenView>> {
    const query = this.tokens.createQueryBuilder('token').where('token.user_id = :userId', { userId: actor.id });
    if (keyword.trim()) query.andWhere(likeCondition(query.connection, 'token.name', 'name'), { name: likeContains(keyword.trim()) });
    const key = token.trim().replace(new RegExp(`^${TOKEN_KEY_PREFIX}`), '');
    query.orderBy('token.id', 'DESC');
    if (!key) {
      const [rows, total] = await query.skip(page.offset).take(page.pageSize).getManyAndCount();
      return toPage(page, total, await this.views(rows.map((row) => this.reveal(row))));
    }
    const matching = (await query.getMany()).map((row) => this.reveal(row)).filter((row) => row.key.includes(key));
    return toPage(page, matching.length, await this.views(matching.slice(page.offset, page.offset + page.pageSize)));
  }

  async get(actor: AuthenticatedUser, id: number): Promise<TokenView> {
    return (await this.views([await this.loadOwn(actor, id)]))[0];
  }

  /** The tokens as their owner sees them, with their budget windows' use (one read for the page). */
  private async views(tokens: TokenEntity[]): Promise<TokenView[]> {
    const usage = await this.budgets.usage('token', tokens.map((token) => ({ id: token.id, windows: parseBudgetWindows(token.budget_windows) })));
    return tokens.map((token) => toTokenView(token, usage.get(token.id)));
  }

  /** The first token takes the name as given; extra ones add '-' and six random letters or digits. */
  async create(actor: AuthenticatedUser, dto: CreateTokenDto): Promise<TokenView[]> {
    const name = (dto.name ?? '').trim();
    const template: Partial<TokenEntity> = {
      user_id: actor.id,
      status: TOKEN_STATUS_ENABLED,
      created_time: nowSeconds(),
      accessed_time: nowSeconds(),
      remain_quota: dto.remain_quota ?? 0,
      unlimited_quota: dto.unlimited_quota ?? false,
      expired_time: this.checkExpiry(dto.expired_time ?? NEVER_EXPIRES),
      model_limits_enabled: dto.model_limits_enabled ?? false,
      model_limits: splitList(dto.model_limits).join(',') || null,
      allow_ips: normaliseAllowIps(dto.allow_ips),
      group: this.checkGroup(actor, dto.group ?? ''),
      used_quota: 0,
      budget_windows: dto.budget_windows === undefined ? null : budgetWindowsColumn(dto.budget_windows),
      rpm_limit: dto.rpm_limit ?? 0,
      tpm_limit: dto.tpm_limit ?? 0,
      model_fallbacks: modelFallbacksColumn(dto.model_fallbacks ?? []),
      response_cache: dto.response_cache ?? false,
      response_cache_nondeterministic: dto.response_cache_nondeterministic ?? false,
    };
    const count = dto.count ?? 1;
    const created = await this.transactions.run(async (manager) => {
      const saved: TokenEntity[] = [];
      for (let index = 0; index < count; index++) {
        const tokenName = index === 0 ? name : `${name}-${randomAlphanumeric(NAME_SUFFIX_LENGTH)}`;
        const key = randomAlphanumeric(TOKEN_KEY_LENGTH);
        const row = await manager.save(manager.create(TokenEntity, { ...template, name: tokenName, ...this.sealedKey(key) }));
        saved.push({ ...row, key });
      }
      return saved;
    });
    for (const token of created) await this.invalidate(token);
    return this.views(created);
  }

  /**
   * A full edit: the fields present change; the status is left to updateStatus. Only changed
   * columns are written, and the quota moves as a delta through the ledger, so calls settling
   * meanwhile keep their effect.
   */
  async update(actor: AuthenticatedUser, dto: UpdateTokenDto): Promise<TokenView> {
    const token = await this.loadOwn(actor, dto.id);
    const changes: Partial<TokenEntity> = {};
    if (dto.name !== undefined) changes.name = dto.name.trim();
    if (dto.unlimited_quota !== undefined) changes.unlimited_quota = dto.unlimited_quota;
    // An unchanged past expiry may come back with an edit of another field.
    if (dto.expired_time !== undefined && dto.expired_time !== token.expired_time) changes.expired_time = this.checkExpiry(dto.expired_time);
    if (dto.model_limits_enabled !== undefined) changes.model_limits_enabled = dto.model_limits_enabled;
    if (dto.model_limits !== undefined) changes.model_limits = splitList(dto.model_limits).join(',') || null;
    if (dto.allow_ips !== undefined) changes.allow_ips = normaliseAllowIps(dto.allow_ips);
    if (dto.group !== undefined && dto.group !== token.group) changes.group = this.checkGroup(actor, dto.group);
    if (dto.budget_windows !== undefined) changes.budget_windows = budgetWindowsColumn(dto.budget_windows);
    if (dto.rpm_limit !== undefined) changes.rpm_limit = dto.rpm_limit;
    if (dto.tpm_limit !== undefined) changes.tpm_limit = dto.tpm_limit;
    if (dto.model_fallbacks !== undefined) changes.model_fallbacks = modelFallbacksColumn(dto.model_fallbacks);
    if (dto.response_cache !== undefined) changes.response_cache = dto.response_cache;
    if (dto.response_cache_nondeterministic !== undefined) changes.response_cache_nondeterministic = dto.response_cache_nondeterministic;
    if (Object.keys(changes).length > 0) await this.tokens.update({ id: token.id, user_id: actor.id }, changes);
    if (dto.remain_quota !== undefined) await this.ledger.adjustTokenLimit(token.id, dto.original_remain_quota ?? token.remain_quota, dto.remain_quota);
    await this.invalidate(token);
    return this.get(actor, token.id);
  }

  /** Enable or disable; an expired or used-up token cannot be enabled until its expiry or quota is fixed. */
  async updateStatus(actor: AuthenticatedUser, id: number, status: number | undefined): Promise<TokenView> {
    if (status !== TOKEN_STATUS_ENABLED && status !== TOKEN_STATUS_DISABLED) throw new AppError('token.invalid_status');
    const token = await this.loadOwn(actor, id);
    if (status === TOKEN_STATUS_ENABLED) {
      if (token.expired_time !== NEVER_EXPIRES && token.expired_time <= nowSeconds()) throw new AppError('token.expired_cannot_enable');
      if (!token.unlimited_quota && token.remain_quota <= 0) throw new AppError('token.exhausted_cannot_enable');
    }
    token.status = status;
    await this.tokens.update({ id: token.id, user_id: actor.id }, { status });
    await this.invalidate(token);
    return (await this.views([token]))[0];
  }

  async delete(actor: AuthenticatedUser, id: number): Promise<void> {
    const token = await this.loadOwn(actor, id);
    await this.tokens.delete({ id: token.id, user_id: actor.id });
    await this.invalidate(token);
  }

  /** Deletes those of the ids that are the caller's own; answers how many. */
  async deleteMany(actor: AuthenticatedUser, ids: number[]): Promise<number> {
    const own = (await this.tokens.find({ select: { id: true, key: true, key_hash: true }, where: { user_id: actor.id, id: In(ids) } })).map((row) => this.reveal(row));
    if (own.length === 0) return 0;
    await this.tokens.delete({ user_id: actor.id, id: In(own.map((token) => token.id)) });
    for (const token of own) await this.invalidate(token);
    return own.length;
  }

  private async loadOwn(actor: AuthenticatedUser, id: number): Promise<TokenEntity> {
    const token = await this.tokens.findOneBy({ id, user_id: actor.id });
    if (!token) throw new AppError('token.not_found');
    return this.reveal(token);
  }

  /** The columns that store a key: encrypted, and its keyed hash for lookups. */
  private sealedKey(key: string): Pick<TokenEntity, 'key' | 'key_hash'> {
    return { key: this.secretBox.encrypt(key), key_hash: this.secretBox.keyedHash(key) };
  }

  /** The row with its key in the clear, for the console and cache invalidation. */
  private reveal<T extends Pick<TokenEntity, 'key'>>(row: T): T {
    return { ...row, key: this.secretBox.decrypt(row.key) };
  }

  private checkExpiry(expiredTime: number): number {
    if (expiredTime !== NEVER_EXPIRES && expiredTime <= nowSeconds()) throw new AppError('token.invalid_expired_time');
    return expiredTime;
  }

  /**
   * Empty means "the user's own group" at request time. Otherwise the group must be one the
   * user may use (mayUseGroup).
   */
  private checkGroup(actor: AuthenticatedUser, raw: string): string {
    const group = raw.trim();
    if (group === '') return group;
    if (!mayUseGroup(this.options, actor.group, group)) throw new AppError('token.group_not_allowed', { group: group.slice(0, 64) });
    return group;
  }

  /** Cached copies are named by the key's hash: no key in the clear goes through Redis. */
  private invalidate(token: Pick<TokenEntity, 'key' | 'key_hash'>): Promise<void> {
    return this.cacheSync.invalidate(CACHE_NAMES.tokens, token.key_hash ?? this.secretBox.keyedHash(token.key));
  }
}
