import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AppError } from '../../common/errors/app-error';
import { SECRET_BOX, SecretBox } from '../../common/crypto/secret-box';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import type { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { AuditRecord, AuditService, secretChange } from '../audit/audit.service';
import { ROLE_ROOT } from '../users/entities/user.entity';
import { OptionEntity } from './entities/option.entity';
import { definitionOf, isOptionKey, OPTION_DEFINITIONS, OPTION_KEYS, OptionDefinition, OptionKey, OptionValue, OptionValues, PRICING_OPTION_KEYS } from './option-definitions';
import type { OptionView } from './option.wire';

const MAX_VALUE_LENGTH = 1_000_000;
/** A plain decimal number (no hex, no Infinity, no blanks). */
const DECIMAL = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;
const CACHE_CHANNEL = CACHE_NAMES.options;

/**
 * Runtime settings: stored in the database, read from memory. Every write refreshes the
 * cache here and tells other instances (through Redis when configured) to reload.
 */
@Injectable()
export class OptionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OptionsService.name);
  /** Stored (string) form of every key, defaults included. */
  private stored = new Map<OptionKey, string>();
  /** Typed values, parsed once per change; what readers get. */
  private readonly values = {} as OptionValues;
  private readonly listeners = new Set<(key: OptionKey) => void>();
  private unsubscribe?: () => void;

  constructor(
    @InjectRepository(OptionEntity) private readonly repository: Repository<OptionEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cacheSync: CacheSyncService,
    @Inject(SECRET_BOX) private readonly secretBox: SecretBox,
    private readonly audit: AuditService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.encryptPlaintextSecrets();
    await this.reload();
    this.unsubscribe = this.cacheSync.subscribe(CACHE_CHANNEL, () => this.reload());
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  async reload(): Promise<void> {
    const rows = await this.repository.find();
    const next = new Map<OptionKey, string>();
    for (const key of OPTION_KEYS) next.set(key, definitionOf(key).default);
    for (const row of rows) if (isOptionKey(row.key)) next.set(row.key, this.storedOrDefault(row.key, this.readStored(row.key, row.value)));
    for (const [key, value] of next) if (value !== this.stored.get(key)) this.apply(key, value);
  }

  /** The typed value of a setting, kept in memory; callers must not mutate objects they get. */
  get<K extends OptionKey>(key: K): OptionValue<K> {
    return this.values[key];
  }

  /** Called with the key after any change, here or on another instance. */
  /** Called with the key after any change, here or on another instance. */
  onChange(listener: (key: OptionKey) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): OptionView[] {
    return OPTION_KEYS.map((key) => {
      const value = this.stored.get(key) ?? '';
      return definitionOf(key).secret ? { key, value: '', is_set: value !== '' } : { key, value };
    });
  }

  /** The published settings, by their /api/status field names. */
  published(): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    for (const key of OPTION_KEYS) {
      const { status, secret } = definitionOf(key);
      if (status && !secret) fields[status] = this.values[key];
    }
    return fields;
  }

  async set(key: string, rawValue: unknown, actorRole: number): Promise<void> {
    if (!isOptionKey(key)) throw new AppError('option.unknown_key', { key: key.slice(0, 191) });
    const definition = definitionOf(key);
    if (definition.rootOnly && actorRole < ROLE_ROOT) throw new AppError('option.root_only', { key });
    const value = normaliseOptionValue(key, definition, rawValue);
    await this.repository.upsert({ key, value: this.storedForm(key, value) }, ['key']);
    this.apply(key, value);
    this.cacheSync.publish(CACHE_CHANNEL);
  }

  /**
   * Several keys written as one change (ratio sync's apply): every row and the one audit row in
   * a single transaction, so the log shows the change exactly when all of it was made; then
   * applied here and announced to the other instances.
   */
  async updateTogether(actor: AuthenticatedUser, values: Partial<Record<OptionKey, string>>, record: Pick<AuditRecord, 'action' | 'changes'>): Promise<void> {
    const entries = (Object.entries(values) as [OptionKey, string][]).map(([key, rawValue]) => {
      const definition = definitionOf(key);
      if (definition.rootOnly && actor.role < ROLE_ROOT) throw new AppError('option.root_only', { key });
      return [key, normaliseOptionValue(key, definition, rawValue)] as const;
    });
    if (entries.length === 0) return;
    await this.repository.manager.transaction(async (manager) => {
      for (const [key, value] of entries) await manager.upsert(OptionEntity, { key, value: this.storedForm(key, value) }, ['key']);
      await this.audit.record(actor, { entity: 'option', entityId: entries.map(([key]) => key).join(','), ...record }, manager);
    });
    for (const [key, value] of entries) this.apply(key, value);
    this.cacheSync.publish(CACHE_CHANNEL);
  }

  /** An administrator's change through the API: written, then recorded in the audit log (a secret only as changed). */
  async update(actor: AuthenticatedUser, key: string, rawValue: unknown): Promise<void> {
    const before = isOptionKey(key) ? this.stored.get(key) : undefined;
    await this.set(key, rawValue, actor.role);
    const after = this.stored.get(key as OptionKey);
    if (before === after) return;
    const change = definitionOf(key as OptionKey).secret ? secretChange() : { from: before, to: after };
    await this.audit.record(actor, { entity: 'option', entityId: key, action: 'update', changes: { value: change } });
  }

  /** Root puts every price map back to the shipped defaults; the audit log keeps what they were. */
  async resetPricingBy(actor: AuthenticatedUser): Promise<void> {
    const before = new Map(PRICING_OPTION_KEYS.map((key) => [key, this.stored.get(key)]));
    await this.resetPricing();
    for (const key of PRICING_OPTION_KEYS) {
      const after = this.stored.get(key);
      if (before.get(key) !== after) await this.audit.record(actor, { entity: 'option', entityId: key, action: 'reset', changes: { value: { from: before.get(key), to: after } } });
    }
  }

  /** Writes several keys; used by setup. */
  async setMany(entries: Record<string, unknown>, actorRole: number): Promise<void> {
    for (const [key, value] of Object.entries(entries)) await this.set(key, value, actorRole);
  }

  async resetPricing(): Promise<void> {
    for (const key of PRICING_OPTION_KEYS) {
      await this.repository.delete({ key });
      this.apply(key, OPTION_DEFINITIONS[key].default);
    }
    this.cacheSync.publish(CACHE_CHANNEL);
  }

  /**
   * Secret settings (SMTP token, client secrets, payment keys…) are stored encrypted like
   * channel keys; rows written before that are encrypted here, once, at start. Guarded by the
   * old value, so instances starting together cannot overwrite a newer value.
   */
  private async encryptPlaintextSecrets(): Promise<void> {
    const secretKeys = OPTION_KEYS.filter((key) => definitionOf(key).secret);
    const rows = await this.repository.find({ where: { key: In(secretKeys) } });
    for (const row of rows) {
      if (row.value === '' || this.secretBox.isEncrypted(row.value)) continue;
      await this.repository.update({ key: row.key, value: row.value }, { value: this.secretBox.encrypt(row.value) });
    }
  }

  /** What the row holds: secret settings encrypted. */
  private storedForm(key: OptionKey, value: string): string {
    return definitionOf(key).secret && value !== '' ? this.secretBox.encrypt(value) : value;
  }

  /** The stored text of a row, decrypted for secret settings (a row that cannot be decrypted reads as unset). */
  private readStored(key: OptionKey, value: string): string {
    if (!definitionOf(key).secret) return value;
    try {
      return this.secretBox.decrypt(value);
    } catch {
      this.logger.warn(`option ${key} cannot be decrypted with the current CRYPTO_SECRET; treating it as unset`);
      return '';
    }
  }

  private apply(key: OptionKey, value: string): void {
    this.stored.set(key, value);
    (this.values as Record<OptionKey, unknown>)[key] = definitionOf(key).parse(value);
    this.notify(key);
  }

  /** A stored row that no longer passes its rule (written by an older version, or by hand) reads as the default. */
  private storedOrDefault(key: OptionKey, value: string): string {
    const definition = definitionOf(key);
    try {
      return normaliseOptionValue(key, definition, value);
    } catch {
      this.logger.warn(`option ${key} holds an invalid stored value; using its default`);
      return definition.default;
    }
  }

  private notify(key: OptionKey): void {
    for (const listener of this.listeners) {
      try {
        listener(key);
      } catch (error) {
        this.logger.error(`option listener failed for ${key}`, error instanceof Error ? error.stack : String(error));
      }
    }
  }

  get syncFrequencySeconds(): number {
    return this.config.syncFrequencySeconds;
  }
}

/** Checks a value against its definition and returns the string to store. */
export function normaliseOptionValue(key: string, definition: OptionDefinition, rawValue: unknown): string {
  if (typeof rawValue !== 'string' && typeof rawValue !== 'number' && typeof rawValue !== 'boolean') {
    throw new AppError('option.invalid_value', { key });
  }
  const value = String(rawValue);
  if (value.length > MAX_VALUE_LENGTH) throw new AppError('option.too_long', { key, max: MAX_VALUE_LENGTH });
  switch (definition.kind) {
    case 'bool':
      if (value !== 'true' && value !== 'false') throw new AppError('option.invalid_bool', { key });
      return value;
    case 'int':
    case 'number': {
      const trimmed = value.trim();
      const number = Number(trimmed);
      if (!DECIMAL.test(trimmed) || !Number.isFinite(number)) throw new AppError(definition.kind === 'int' ? 'option.invalid_int' : 'option.invalid_number', { key });
      if (definition.kind === 'int' && !Number.isInteger(number)) throw new AppError('option.invalid_int', { key });
      if (definition.min !== undefined && number < definition.min) throw new AppError('option.too_small', { key, min: definition.min });
      if (definition.max !== undefined && number > definition.max) throw new AppError('option.too_large', { key, max: definition.max });
      return String(number);
    }
    case 'url': {
      const trimmed = value.trim().replace(/\/+$/, '');
      if (trimmed !== '' && !/^https?:\/\/\S+$/i.test(trimmed)) throw new AppError('option.invalid_url', { key });
      return trimmed;
    }
    case 'json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        throw new AppError('option.invalid_json', { key });
      }
      if (definition.shape && !definition.shape.test(parsed)) throw new AppError(definition.shape.rule, { key, at: definition.shape.problem?.(parsed) ?? '' });
      return value;
    }
    case 'enum':
      if (!definition.values?.includes(value)) throw new AppError('option.invalid_enum', { key, values: (definition.values ?? []).join(', ') });
      return value;
    case 'string':
    case 'list':
      // Names, addresses, keys and comma lists: a line break can only be a paste mistake.
      if (/[\r\n]/.test(value.trim())) throw new AppError('option.single_line', { key });
      return value.trim();
    case 'text':
    case 'lines':
      return value;
  }
}
