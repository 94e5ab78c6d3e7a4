import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { AdminOnly } from '../../common/auth/auth.decorators';
import { Page, parsePageQuery } from '../../common/http/pagination';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import { PagedListQuery } from '../../common/http/query-docs';
import { CreateModelMetaDto, UpdateModelMetaDto } from './dto/model-meta.dto';
import { CreateVendorDto, UpdateVendorDto } from './dto/vendor.dto';
import { parseModelMetaFilter } from './model-meta.filter';
import { ModelMetaService } from './model-meta.service';
import type { ModelMetaView, VendorView } from './model-meta.wire';
import { VendorsService } from './vendors.service';

const rowId = new ParseRowIdPipe();

/**
 * /api/models/vendors/*: administrators manage vendors. GET /api/models itself stays the channel
 * editor's type → models map (ChannelTypeModelsController).
 */
@AdminOnly()
@Controller('api/models/vendors')
export class VendorsController {
  constructor(private readonly vendors: VendorsService) {}

  @Get()
  list(): Promise<VendorView[]> {
    return this.vendors.list();
  }

  @Post()
  create(@Body() dto: CreateVendorDto): Promise<VendorView> {
    return this.vendors.create(dto);
  }

  @Put()
  update(@Body() dto: UpdateVendorDto): Promise<VendorView> {
    return this.vendors.update(dto);
  }

  @Delete(':id')
  async delete(@Param('id', rowId) id: number): Promise<null> {
    await this.vendors.delete(id);
    return null;
  }
}

/** /api/models/*: administrators manage model metadata. The `:id` routes live in ModelMetaByIdController. */
@AdminOnly()
@Controller('api/models')
export class ModelMetaController {
  constructor(private readonly models: ModelMetaService) {}

  /** The list: every model when the filters are empty. */
  @Get('search')
  @PagedListQuery(['keyword', 'vendor_id', 'tag'])
  search(@Query() query: Record<string, string>): Promise<Page<ModelMetaView>> {
    return this.models.search(parseModelMetaFilter(query), parsePageQuery(query));
  }

  @Post()
  create(@Body() dto: CreateModelMetaDto): Promise<ModelMetaView> {
    return this.models.create(dto);
  }

  @Put()
  update(@Body() dto: UpdateModelMetaDto): Promise<ModelMetaView> {
    return this.models.update(dto);
  }
}

/** `:id` would swallow /api/models/search and /api/models/vendors, so ModelMetaByIdModule is imported late. */
@AdminOnly()
@Controller('api/models')
export class ModelMetaByIdController {
  constructor(private readonly models: ModelMetaService) {}

  @Get(':id')
  get(@Param('id', rowId) id: number): Promise<ModelMetaView> {
    return this.models.get(id);
  }

  @Delete(':id')
  async delete(@Param('id', rowId) id: number): Promise<null> {
    await this.models.delete(id);
    return null;
  }
}
