import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, QueryFailedError, Repository } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { likeContains, Page, PageQuery, toPage } from '../../common/http/pagination';
import { nowSeconds } from '../../database/columns';
import { likeCondition } from '../../database/dialect';
import { CreateModelMetaDto, UpdateModelMetaDto } from './dto/model-meta.dto';
import { ModelMetaEntity } from './entities/model-meta.entity';
import { VendorEntity } from './entities/vendor.entity';
import { joinList, MAX_DESCRIPTION_LENGTH, MAX_MODEL_NAME_LENGTH, MAX_TOKEN_COUNT, MODALITIES, MODEL_TAGS, parseList } from './model-meta.catalogue';
import { toModelMetaView, toPublicModelMeta } from './model-meta.view';
import type { ModelMetaView, ModelTag, PublicModelMeta, PublicVendor } from './model-meta.wire';
import { checkedIcon, VendorsService } from './vendors.service';

export interface ModelMetaFilter {
  /** A literal substring of the model name or description. */
  keyword: string;
  vendorId?: number;
  tag?: ModelTag;
}

/**
 * Metadata a sync source carries for one model (ratio sync from another gateway or a price list).
 * Anything unknown or out of range is dropped rather than refused: a source is not an administrator.
 */
export interface ModelMetaFromSource {
  model_name: string;
  description?: string;
  /** A vendor name; created when no vendor of that name (case-insensitive) exists. */
  vendor?: string;
  vendor_icon?: string;
  tags?: readonly string[];
  context_length?: number;
  max_output?: number;
  input_modalities?: readonly string[];
  output_modalities?: readonly string[];
  icon?: string;
}

/** What the public pricing answer needs: metadata by served model name, and the vendors it names (by name). */
export interface PublicModelCatalogue {
  metaFor(modelName: string): PublicModelMeta | undefined;
  vendors: PublicVendor[];
}

type MetaColumns = Omit<ModelMetaEntity, 'id' | 'model_name' | 'created_time' | 'updated_time'>;

/** Model metadata: administrators edit it, sync sources fill its gaps, the pricing page reads it. */
@Injectable()
export class ModelMetaService {
  constructor(
    @InjectRepository(ModelMetaEntity) private readonly models: Repository<ModelMetaEntity>,
    @InjectRepository(VendorEntity) private readonly vendorRows: Repository<VendorEntity>,
    private readonly vendors: VendorsService,
  ) {}

  async search(filter: ModelMetaFilter, page: PageQuery): Promise<Page<ModelMetaView>> {
    const query = this.models.createQueryBuilder('meta');
    const keyword = filter.keyword.trim();
    if (keyword) {
      query.andWhere(`(${likeCondition(query.connection, 'meta.model_name', 'keyword')} OR ${likeCondition(query.connection, 'meta.description', 'keyword')})`, { keyword: likeContains(keyword) });
    }
    if (filter.vendorId !== undefined) query.andWhere('meta.vendor_id = :vendorId', { vendorId: filter.vendorId });
    // Tags are a comma list of catalogue words, none of which contains another, so a substring is the tag.
    if (filter.tag) query.andWhere('meta.tags LIKE :tag', { tag: `%${filter.tag}%` });
    const [rows, total] = await query.orderBy('meta.model_name', 'ASC').skip(page.offset).take(page.pageSize).getManyAndCount();
    return toPage(page, total, rows.map(toModelMetaView));
  }

  async get(id: number): Promise<ModelMetaView> {
    return toModelMetaView(await this.load(id));
  }

  async create(dto: CreateModelMetaDto): Promise<ModelMetaView> {
    const modelName = requireModelName(dto.model_name);
    await this.refuseTakenName(modelName);
    const columns = await this.columnsFrom(dto);
    const now = nowSeconds();
    const row: Omit<ModelMetaEntity, 'id'> = { ...emptyColumns(), ...columns, model_name: modelName, created_time: now, updated_time: now };
    try {
      const result = await this.models.insert(row);
      return this.get(Number(result.identifiers[0].id));
    } catch (error) {
      if (error instanceof QueryFailedError) throw new AppError('model_meta.duplicate_name', { name: modelName });
      throw error;
    }
  }

  async update(dto: UpdateModelMetaDto): Promise<ModelMetaView> {
    await this.load(dto.id);
    const changes: Partial<ModelMetaEntity> = await this.columnsFrom(dto);
    if (dto.model_name !== undefined) {
      changes.model_name = requireModelName(dto.model_name);
      await this.refuseTakenName(changes.model_name, dto.id);
    }
    try {
      await this.models.update({ id: dto.id }, { ...changes, updated_time: nowSeconds() });
    } catch (error) {
      if (error instanceof QueryFailedError && changes.model_name) throw new AppError('model_meta.duplicate_name', { name: changes.model_name });
      throw error;
    }
    return this.get(dto.id);
  }

  async delete(id: number): Promise<void> {
    const result = await this.models.delete({ id });
    if (!result.affected) throw new AppError('model_meta.not_found');
  }

  /** One read of the metadata of the given model names (an exact name first, else case-insensitively) and of their vendors. */
  async publicCatalogue(modelNames: readonly string[]): Promise<PublicModelCatalogue> {
    const [rows, vendorRows] = await Promise.all([this.models.find(), this.vendorRows.find()]);
    const exact = new Map(rows.map((row) => [row.model_name, row]));
    const folded = new Map(rows.map((row) => [row.model_name.toLowerCase(), row]));
    const metaByName = new Map<string, PublicModelMeta>();
    for (const name of modelNames) {
      const row = exact.get(name) ?? folded.get(name.toLowerCase());
      if (row) metaByName.set(name, toPublicModelMeta(row));
    }
    const namedVendors = new Set([...metaByName.values()].map((meta) => meta.vendor_id));
    return {
      metaFor: (modelName) => metaByName.get(modelName),
      // Sorted here, not by the database, so every dialect's collation gives the same order.
      vendors: vendorRows
        .filter((vendor) => namedVendors.has(vendor.id))
        .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }))
        .map((vendor) => ({ id: vendor.id, name: vendor.name, icon: vendor.icon })),
    };
  }

  /**
   * For ratio sync: creates the models it does not know and fills only the empty fields of those
   * it does, so an administrator's edits always win over a source. Answers how many rows changed.
   */
  async fillFromSource(entries: readonly ModelMetaFromSource[]): Promise<{ created: number; filled: number }> {
    const names = [...new Set(entries.map((entry) => entry.model_name.trim()).filter((name) => name && name.length <= MAX_MODEL_NAME_LENGTH))];
    if (names.length === 0) return { created: 0, filled: 0 };
    const existing = new Map((await this.models.findBy({ model_name: In(names) })).map((row) => [row.model_name, row]));
    const seen = new Set<string>();
    let created = 0;
    let filled = 0;
    for (const entry of entries) {
      const name = entry.model_name.trim();
      // The first entry of a name counts; an invalid name is skipped.
      if (!names.includes(name) || seen.has(name)) continue;
      seen.add(name);
      const offered = await this.sourceColumns(entry);
      const current = existing.get(name);
      if (!current) {
        const now = nowSeconds();
        const row = { ...emptyColumns(), ...offered, model_name: name, created_time: now, updated_time: now };
        try {
          await this.models.insert(row);
          created += 1;
        } catch (error) {
          // MySQL's collation folds case: a name differing only in case is already there; leave it be.
          if (!(error instanceof QueryFailedError)) throw error;
        }
        continue;
      }
      const gaps = onlyGaps(current, offered);
      if (Object.keys(gaps).length === 0) continue;
      await this.models.update({ id: current.id }, { ...gaps, updated_time: nowSeconds() });
      filled += 1;
    }
    return { created, filled };
  }

  private async load(id: number): Promise<ModelMetaEntity> {
    const row = await this.models.findOneBy({ id });
    if (!row) throw new AppError('model_meta.not_found');
    return row;
  }

  private async refuseTakenName(modelName: string, exceptId?: number): Promise<void> {
    const existing = await this.models.findOneBy({ model_name: modelName });
    if (existing && existing.id !== exceptId) throw new AppError('model_meta.duplicate_name', { name: modelName });
  }

  /** The columns a create or update gives, checked. */
  private async columnsFrom(dto: CreateModelMetaDto | UpdateModelMetaDto): Promise<Partial<MetaColumns>> {
    const columns: Partial<MetaColumns> = {};
    if (dto.description !== undefined) columns.description = dto.description.trim();
    if (dto.vendor_id !== undefined) {
      if (dto.vendor_id !== 0 && !(await this.vendors.exists(dto.vendor_id))) throw new AppError('vendor.not_found');
      columns.vendor_id = dto.vendor_id;
    }
    if (dto.tags !== undefined) columns.tags = joinList(parseList(joinList(dto.tags), MODEL_TAGS));
    if (dto.context_length !== undefined) columns.context_length = dto.context_length;
    if (dto.max_output !== undefined) columns.max_output = dto.max_output;
    if (dto.input_modalities !== undefined) columns.input_modalities = joinList(parseList(joinList(dto.input_modalities), MODALITIES));
    if (dto.output_modalities !== undefined) columns.output_modalities = joinList(parseList(joinList(dto.output_modalities), MODALITIES));
    if (dto.icon !== undefined) columns.icon = checkedIcon(dto.icon);
    return columns;
  }

  /** A source's entry as columns, keeping only what is well formed. */
  private async sourceColumns(entry: ModelMetaFromSource): Promise<Partial<MetaColumns>> {
    const columns: Partial<MetaColumns> = {};
    if (typeof entry.description === 'string') columns.description = entry.description.trim().slice(0, MAX_DESCRIPTION_LENGTH);
    if (typeof entry.vendor === 'string' && entry.vendor.trim()) columns.vendor_id = await this.vendors.idForName(entry.vendor, entry.vendor_icon);
    if (entry.tags) columns.tags = joinList(parseList(entry.tags.join(','), MODEL_TAGS));
    if (isTokenCount(entry.context_length)) columns.context_length = entry.context_length;
    if (isTokenCount(entry.max_output)) columns.max_output = entry.max_output;
    if (entry.input_modalities) columns.input_modalities = joinList(parseList(entry.input_modalities.join(','), MODALITIES));
    if (entry.output_modalities) columns.output_modalities = joinList(parseList(entry.output_modalities.join(','), MODALITIES));
    if (typeof entry.icon === 'string') {
      try {
        columns.icon = checkedIcon(entry.icon);
      } catch {
        // A source's unusable icon is left out, not an error.
      }
    }
    return columns;
  }
}

function requireModelName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new AppError('model_meta.invalid_name');
  return name;
}

function emptyColumns(): MetaColumns {
  return { description: '', vendor_id: 0, tags: '', context_length: 0, max_output: 0, input_modalities: '', output_modalities: '', icon: '' };
}

function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_TOKEN_COUNT;
}

/** The offered values of the fields that are still empty (or 0) in `current`. */
function onlyGaps(current: ModelMetaEntity, offered: Partial<MetaColumns>): Partial<MetaColumns> {
  const gaps: Partial<MetaColumns> = {};
  for (const [field, value] of Object.entries(offered) as [keyof MetaColumns, MetaColumns[keyof MetaColumns]][]) {
    if ((current[field] === '' || current[field] === 0) && value !== '' && value !== 0) Object.assign(gaps, { [field]: value });
  }
  return gaps;
}
