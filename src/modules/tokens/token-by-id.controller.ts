import { Controller, Delete, Get, Param } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import { TokensService } from './tokens.service';
import { TokenView } from './token.wire';

const tokenId = new ParseRowIdPipe();

/** `:id` would swallow static paths such as /api/token/search, so TokenByIdModule is imported late. */
@Controller('api/token')
export class TokenByIdController {
  constructor(private readonly tokens: TokensService) {}

  @Get(':id')
  get(@CurrentUser() actor: AuthenticatedUser, @Param('id', tokenId) id: number): Promise<TokenView> {
    return this.tokens.get(actor, id);
  }

  @Delete(':id')
  async delete(@CurrentUser() actor: AuthenticatedUser, @Param('id', tokenId) id: number): Promise<null> {
    await this.tokens.delete(actor, id);
    return null;
  }
}
