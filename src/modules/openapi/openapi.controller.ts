import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AdminOnly, AuthenticatedUser, BrowserPage, CurrentUser } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { ApiDoc } from '../../common/http/query-docs';
import { OpenApiDocumentService } from './openapi-document.service';

/** The files of swagger-ui-dist the page loads; nothing else of the package is served. */
const SWAGGER_UI_ASSETS = new Set(['swagger-ui.css', 'index.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'favicon-16x16.png']);

/** swagger-ui-dist's folder, resolved as @nestjs/swagger (which depends on it) sees it. */
const SWAGGER_UI_DIR = path.dirname(createRequire(require.resolve('@nestjs/swagger')).resolve('swagger-ui-dist/package.json'));

/** The Swagger UI page; it names the signed-in admin in New-Api-User on every call it makes, as the console does. */
function swaggerPage(userId: number): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>AI gateway API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="stylesheet" href="/api/docs/index.css">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  requestInterceptor: function (request) { request.headers['New-Api-User'] = '${userId}'; return request; }
});
</script>
</body>
</html>`;
}

/**
 * GET /api/openapi.json (the OpenAPI 3 document, not enveloped: tools read it as is) and the
 * Swagger UI at /api/docs, served from swagger-ui-dist. Administrators only.
 */
@AdminOnly()
@Controller('api')
export class OpenApiController {
  constructor(private readonly openApi: OpenApiDocumentService) {}

  @Get('openapi.json')
  @ApiDoc(({ ApiProduces }) => ApiProduces('application/json'))
  document(@Res() response: Response): void {
    response.json(this.openApi.document());
  }

  @Get('docs')
  @BrowserPage()
  @ApiDoc(({ ApiExcludeEndpoint }) => ApiExcludeEndpoint())
  page(@CurrentUser() actor: AuthenticatedUser, @Res() response: Response): void {
    response.type('html').setHeader('Cache-Control', 'no-store');
    response.send(swaggerPage(actor.id));
  }

  @Get('docs/:asset')
  @BrowserPage()
  @ApiDoc(({ ApiExcludeEndpoint }) => ApiExcludeEndpoint())
  asset(@Param('asset') asset: string, @Res() response: Response): void {
    if (!SWAGGER_UI_ASSETS.has(asset)) throw new AppError('common.not_found', {}, 404);
    response.sendFile(path.join(SWAGGER_UI_DIR, asset), { maxAge: '1h' });
  }
}
