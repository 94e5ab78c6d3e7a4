import { applyDecorators } from '@nestjs/common';

type Swagger = typeof import('@nestjs/swagger');

/** Annotations recorded at class definition, waiting for the document's first build. */
const pending: Array<(swagger: Swagger) => void> = [];

/**
 * A @nestjs/swagger method decorator, applied when the OpenAPI document is first built
 * (applyApiDocs) instead of when the controller class is defined: @nestjs/swagger, with lodash
 * and js-yaml under it, then loads only for a gateway whose document someone asks for (issue 32).
 * `ApiDoc((swagger) => swagger.ApiProduces('text/xml'))` is `@ApiProduces('text/xml')`.
 */
export function ApiDoc(make: (swagger: Swagger) => MethodDecorator): MethodDecorator {
  return (target, key, descriptor) => {
    pending.push((swagger) => make(swagger)(target, key, descriptor));
  };
}

/** Applies every annotation recorded so far, in declaration order; the document builder calls it first. */
export function applyApiDocs(swagger: Swagger): void {
  for (const apply of pending.splice(0)) apply(swagger);
}

/**
 * Documents the query parameters of a list route that reads its query as a plain record
 * (parsePageQuery plus a few filters), which the OpenAPI scanner cannot see by itself.
 * `sizeParam` is the page-size name the route reads (`size` on the token list).
 */
export const PagedListQuery = (filters: string[] = [], sizeParam = 'page_size') =>
  ApiDoc(({ ApiQuery }) =>
    applyDecorators(
      ApiQuery({ name: 'p', required: false, type: 'integer', description: '1-based page' }),
      ApiQuery({ name: sizeParam, required: false, type: 'integer', description: '1 to 100' }),
      ...filters.map((name) => ApiQuery({ name, required: false, type: 'string' })),
    ),
  );
