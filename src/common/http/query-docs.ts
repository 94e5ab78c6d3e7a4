import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/**
 * Documents the query parameters of a list route that reads its query as a plain record
 * (parsePageQuery plus a few filters), which the OpenAPI scanner cannot see by itself.
 * `sizeParam` is the page-size name the route reads (`size` on the token list).
 */
export const PagedListQuery = (filters: string[] = [], sizeParam = 'page_size') =>
  applyDecorators(
    ApiQuery({ name: 'p', required: false, type: 'integer', description: '1-based page' }),
    ApiQuery({ name: sizeParam, required: false, type: 'integer', description: '1 to 100' }),
    ...filters.map((name) => ApiQuery({ name, required: false, type: 'string' })),
  );
