import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser, RootOnly } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import { CreateScimTokenDto } from './dto/scim-token.dto';
import { ScimTokensService } from './scim-tokens.service';
import type { ScimTokenCreatedView, ScimTokenView } from './scim.wire';

/** The settings page's SCIM card (root): the bearer tokens identity providers call /scim/v2 with. */
@RootOnly()
@Controller('api/scim/tokens')
export class ScimTokensController {
  constructor(private readonly tokens: ScimTokensService) {}

  @Get()
  list(): Promise<ScimTokenView[]> {
    return this.tokens.list();
  }

  @Post()
  async create(@CurrentUser() actor: AuthenticatedUser, @Body() dto: CreateScimTokenDto): Promise<ApiResult<ScimTokenCreatedView>> {
    return new ApiResult(await this.tokens.create(actor, dto.name), 'scim.token_created');
  }

  @Delete(':id')
  async revoke(@CurrentUser() actor: AuthenticatedUser, @Param('id', new ParseRowIdPipe()) id: number): Promise<ApiResult<null>> {
    await this.tokens.revoke(actor, id);
    return new ApiResult(null, 'scim.token_revoked');
  }
}
