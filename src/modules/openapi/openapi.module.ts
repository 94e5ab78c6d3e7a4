import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';
import { OpenApiDocumentService } from './openapi-document.service';

/** The OpenAPI document of the management API and its Swagger UI, for administrators. */
@Module({
  controllers: [OpenApiController],
  providers: [OpenApiDocumentService],
  exports: [OpenApiDocumentService],
})
export class OpenApiModule {}
