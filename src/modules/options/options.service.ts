import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AppError } from '../../common/errors/app-error';
import { CacheSyncService } from '../../common/cache/cache-sync.service';
import { CACHE_NAMES } from '../../common/cache/cache-names';
import { ROLE_ROOT } from '../users/entities/user.entity';
import { OptionEntity } from './entities/option.entity';
import { OPTION_DEFINITIONS, OptionDefinition, PRICING_OPTION_KEYS } from './option-definitions';

export interface OptionView {
  key: string;
  value: string;
  /** Present on secret options, whose value is never sent back. */
  is_set?: boolean;
}

const MAX_VALUE_LENGTH = 1_000_000;
const CACHE_CHANNEL = CACHE_NAMES.options;

/**
 * Runtime settings: stored in the database, read from memory. Every write refreshes the
 * cache here and tells other instances (through Redis when configured) to reload.
 */
@Injectable()
export class OptionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OptionsService.name);
  private values = new Map<string, string>();
  private parsed = new Map<string, unknown>();
  private readonly listeners = new Set<(key: string) => void>();
  private unsubscribe?: () => void;

  constructor(
    @InjectRepository(OptionEntity) private readonly repository: Repository<OptionEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cacheSync: CacheSyncService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.reload();
    this.unsubscribe = this.cacheSync.subscribe(CACHE_CHANNEL, () => this.reload());
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  async reload(): Promise<void> {
    const rows = await this.repository.find();
    const next = new Map<string, string>();
    for (const [key, definition] of Object.entries(OPTION_DEFINITIONS)) next.set(key, definition.default);
    for (const row of rows) if (row.key in OPTION_DEFINITIONS) next.set(row.key, row.value);
    const changed = [...next.keys()].filter((key) => next.get(key) !== this.values.get(key));
    this.values = next;
    this.parsed.clear();
    for (const key of changed) this.notify(key);
  }

  get(key: string): string {
    const value = this.values.get(key);
    if (value === undefined) throw new Error(`option ${key} is not defined`);
    return value;
  }

  getBool(key: string): boolean {
    return this.get(key) === 'true';
  }

  getNumber(key: string): number {
    return Number(this.get(key));
  }

  /** Parsed once per write; callers must not mutate the result. */
  getJson<T>(key: string): T {
    if (!this.parsed.has(key)) {
      let value: unknown;
      try {
        value = JSON.parse(this.get(key));
      } catch {
        value = JSON.parse(OPTION_DEFINITIONS[key].default);
      }
      this.parsed.set(key, value);
    }
    return this.parsed.get(key) as T;
  }

  /** Called with the key after any change, here or on another instance. */
  onChange(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): OptionView[] {
    return Object.entries(OPTION_DEFINITIONS).map(([key, definition]) =>
      definition.secret ? { key, value: '', is_set: this.get(key) !== '' } : { key, value: this.get(key) },
    );
  }

  async set(key: string, rawValue: unknown, actorRole: number): Promise<void> {
    const definition = OPTION_DEFINITIONS[key];
    if (!definition) throw new AppError('option.unknown_key', { key });
    if (definition.rootOnly && actorRole < ROLE_ROOT) throw new AppError('option.root_only', { key });
    const value = normaliseOptionValue(key, definition, rawValue);
    await this.repository.upsert({ key, value }, ['key']);
    this.values.set(key, value);
    this.parsed.delete(key);
    this.notify(key);
    this.cacheSync.publish(CACHE_CHANNEL);
  }

  /** Writes several keys; used by setup. */
  async setMany(entries: Record<string, unknown>, actorRole: number): Promise<void> {
    for (const [key, value] of Object.entries(entries)) await this.set(key, value, actorRole);
  }

  async resetPricing(): Promise<void> {
    for (const key of PRICING_OPTION_KEYS) {
      await this.repository.delete({ key });
      this.values.set(key, OPTION_DEFINITIONS[key].default);
      this.parsed.delete(key);
      this.notify(key);
    }
    this.cacheSync.publish(CACHE_CHANNEL);
  }

  private notify(key: string): void {
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
    throw new AppError('option.invalid_value');
  }
  const value = String(rawValue);
  if (value.length > MAX_VALUE_LENGTH) throw new AppError('option.too_long', { key });
  switch (definition.kind) {
    case 'bool':
      if (value !== 'true' && value !== 'false') throw new AppError('option.invalid_bool', { key });
      return value;
    case 'int':
    case 'number': {
      const trimmed = value.trim();
      const number = Number(trimmed);
      if (trimmed === '' || !Number.isFinite(number)) throw new AppError(definition.kind === 'int' ? 'option.invalid_int' : 'option.invalid_number', { key });
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
      if (definition.shape && !definition.shape(parsed)) throw new AppError('option.invalid_json_shape', { key });
      return value;
    }
    case 'enum':
      if (!definition.values?.includes(value)) throw new AppError('option.invalid_enum', { key, values: (definition.values ?? []).join(', ') });
      return value;
    case 'string':
      return value.trim();
    case 'text':
      return value;
  }
}
