import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { Page, parsePageQuery } from '../../common/http/pagination';
import { CreateTokenDto, TokenIdsDto, UpdateTokenDto } from './dto/token.dto';
import { TokensService } from './tokens.service';
import { TokenView } from './token.wire';
import { PagedListQuery } from '../../common/http/query-docs';

/** /api/token/*: the caller's own tokens. The `:id` routes live in TokenByIdController. */
@Controller('api/token')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Get()
  @PagedListQuery([], 'size')
  list(@CurrentUser() actor: AuthenticatedUser, @Query() query: Record<string, string>): Promise<Page<TokenView>> {
    return this.tokens.list(actor, parsePageQuery(query, 'size'));
  }

  @Get('search')
  @PagedListQuery(['keyword', 'token'], 'size')
  search(@CurrentUser() actor: AuthenticatedUser, @Query() query: Record<string, string>): Promise<Page<TokenView>> {
    return this.tokens.search(actor, String(query.keyword ?? '').slice(0, 64), String(query.token ?? '').slice(0, 64), parsePageQuery(query, 'size'));
  }

  @Post()
  create(@CurrentUser() actor: AuthenticatedUser, @Body() dto: CreateTokenDto): Promise<TokenView[]> {
    return this.tokens.create(actor, dto);
  }

  /** ?status_only=true changes only the status (enable/disable); otherwise a full edit. */
  @Put()
  update(@CurrentUser() actor: AuthenticatedUser, @Query('status_only') statusOnly: string | undefined, @Body() dto: UpdateTokenDto): Promise<TokenView> {
    return statusOnly === 'true' || statusOnly === '1' ? this.tokens.updateStatus(actor, dto.id, dto.status) : this.tokens.update(actor, dto);
  }

  @Post('batch')
  deleteMany(@CurrentUser() actor: AuthenticatedUser, @Body() dto: TokenIdsDto): Promise<number> {
    return this.tokens.deleteMany(actor, dto.ids);
  }
}
