import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, QueryFailedError, Repository } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ModelMetaEntity } from './entities/model-meta.entity';
import { VendorEntity } from './entities/vendor.entity';
import { CreateVendorDto, UpdateVendorDto } from './dto/vendor.dto';
import { isValidIcon } from './model-meta.catalogue';
import type { VendorView } from './model-meta.wire';

/** Vendors: a short list (tens), read whole. */
@Injectable()
export class VendorsService {
  constructor(
    @InjectRepository(VendorEntity) private readonly vendors: Repository<VendorEntity>,
    @InjectRepository(ModelMetaEntity) private readonly models: Repository<ModelMetaEntity>,
    private readonly dataSource: DataSource,
  ) {}

  async list(): Promise<VendorView[]> {
    const [rows, counts] = await Promise.all([
      this.vendors.find({ order: { name: 'ASC' } }),
      this.models.createQueryBuilder('meta').select('meta.vendor_id', 'vendor_id').addSelect('COUNT(*)', 'count').groupBy('meta.vendor_id').getRawMany<{ vendor_id: number; count: number | string }>(),
    ]);
    const countByVendor = new Map(counts.map((row) => [Number(row.vendor_id), Number(row.count)]));
    return rows.map((row) => ({ id: row.id, name: row.name, icon: row.icon, model_count: countByVendor.get(row.id) ?? 0 }));
  }

  async create(dto: CreateVendorDto): Promise<VendorView> {
    const name = requireName(dto.name);
    const icon = checkedIcon(dto.icon ?? '');
    await this.refuseTakenName(name);
    const inserted = await this.insertOrRefuse(name, icon);
    return { id: inserted, name, icon, model_count: 0 };
  }

  async update(dto: UpdateVendorDto): Promise<VendorView> {
    await this.load(dto.id);
    const changes: Partial<VendorEntity> = {};
    if (dto.name !== undefined) {
      changes.name = requireName(dto.name);
      await this.refuseTakenName(changes.name, dto.id);
    }
    if (dto.icon !== undefined) changes.icon = checkedIcon(dto.icon);
    if (Object.keys(changes).length) await this.vendors.update({ id: dto.id }, changes);
    const view = (await this.list()).find((vendor) => vendor.id === dto.id);
    if (!view) throw new AppError('vendor.not_found');
    return view;
  }

  /** The vendor's models keep their metadata and lose only the vendor. */
  async delete(id: number): Promise<void> {
    await this.load(id);
    await this.dataSource.transaction(async (manager) => {
      await manager.update(ModelMetaEntity, { vendor_id: id }, { vendor_id: 0 });
      await manager.delete(VendorEntity, { id });
    });
  }

  async exists(id: number): Promise<boolean> {
    return (await this.vendors.countBy({ id })) > 0;
  }

  /** The vendor of that name (case-insensitive), created with `icon` when there is none: for metadata from sync sources. */
  async idForName(rawName: string, icon = ''): Promise<number> {
    const name = rawName.trim().slice(0, 64);
    if (!name) return 0;
    const existing = await this.findByName(name);
    if (existing) return existing.id;
    return this.insertOrRefuse(name, isValidIcon(icon) ? icon : '').catch(async (error: unknown) => {
      const raced = await this.findByName(name);
      if (raced) return raced.id;
      throw error;
    });
  }

  private findByName(name: string): Promise<VendorEntity | null> {
    return this.vendors.createQueryBuilder('vendor').where('LOWER(vendor.name) = :name', { name: name.toLowerCase() }).getOne();
  }

  private async load(id: number): Promise<VendorEntity> {
    const row = await this.vendors.findOneBy({ id });
    if (!row) throw new AppError('vendor.not_found');
    return row;
  }

  private async refuseTakenName(name: string, exceptId?: number): Promise<void> {
    const existing = await this.findByName(name);
    if (existing && existing.id !== exceptId) throw new AppError('vendor.duplicate_name', { name });
  }

  /** The unique index decides a race between two creators of one name. */
  private async insertOrRefuse(name: string, icon: string): Promise<number> {
    try {
      const result = await this.vendors.insert({ name, icon });
      return Number(result.identifiers[0].id);
    } catch (error) {
      if (error instanceof QueryFailedError) throw new AppError('vendor.duplicate_name', { name });
      throw error;
    }
  }
}

function requireName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new AppError('vendor.invalid_name');
  return name;
}

export function checkedIcon(raw: string): string {
  const icon = raw.trim();
  if (!isValidIcon(icon)) throw new AppError('model_meta.invalid_icon');
  return icon;
}
