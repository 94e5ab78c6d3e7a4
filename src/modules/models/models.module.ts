import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ModelMetaEntity } from './entities/model-meta.entity';
import { VendorEntity } from './entities/vendor.entity';
import { ModelMetaByIdController, ModelMetaController, VendorsController } from './models.controller';
import { ModelMetaService } from './model-meta.service';
import { VendorsService } from './vendors.service';

/**
 * Model and vendor metadata. Other modules read it through ModelMetaService (the pricing page)
 * or fill it (ratio sync: ModelMetaService.fillFromSource).
 */
@Module({
  imports: [TypeOrmModule.forFeature([ModelMetaEntity, VendorEntity])],
  controllers: [VendorsController, ModelMetaController],
  providers: [ModelMetaService, VendorsService],
  exports: [ModelMetaService],
})
export class ModelsModule {}

/** Imported after every module with static /api/models/* paths (see app.module). */
@Module({
  imports: [ModelsModule],
  controllers: [ModelMetaByIdController],
})
export class ModelMetaByIdModule {}
