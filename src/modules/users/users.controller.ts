import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { AdminOnly, AllowedBeforeTwoFactorEnrolment, AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { Page, parsePageQuery } from '../../common/http/pagination';
import { AffTransferDto, CreateUserDto, ManageUserDto, UpdateSelfDto, UpdateUserDto, UserSettingDto } from './dto/user.dto';
import { SelfService } from './self.service';
import { UserManagementService } from './user-management.service';
import { GroupChoice, UserView } from './user.wire';
import { PagedListQuery } from '../../common/http/query-docs';

/** /api/user/*: the caller's own account, and user management for admins. */
@Controller('api/user')
export class UsersController {
  constructor(
    private readonly self: SelfService,
    private readonly management: UserManagementService,
  ) {}

  @AllowedBeforeTwoFactorEnrolment()
  @Get('self')
  getSelf(@CurrentUser() actor: AuthenticatedUser): Promise<UserView> {
    return this.self.get(actor);
  }

  @Put('self')
  async updateSelf(@CurrentUser() actor: AuthenticatedUser, @Body() dto: UpdateSelfDto): Promise<ApiResult<UserView>> {
    return new ApiResult(await this.self.update(actor, dto), 'user.setting_updated');
  }

  @Delete('self')
  async deleteSelf(@CurrentUser() actor: AuthenticatedUser): Promise<null> {
    await this.self.delete(actor);
    return null;
  }

  @Get('self/groups')
  groups(@CurrentUser() actor: AuthenticatedUser): Promise<Record<string, GroupChoice>> {
    return this.self.groups(actor);
  }

  @Put('setting')
  async updateSetting(@CurrentUser() actor: AuthenticatedUser, @Body() dto: UserSettingDto): Promise<ApiResult<null>> {
    await this.self.updateSetting(actor, dto);
    return new ApiResult(null, 'user.setting_updated');
  }

  @Get('token')
  accessToken(@CurrentUser() actor: AuthenticatedUser): Promise<string> {
    return this.self.issueAccessToken(actor);
  }

  @Get('aff')
  affCode(@CurrentUser() actor: AuthenticatedUser): Promise<string> {
    return this.self.affCode(actor);
  }

  @Post('aff_transfer')
  async affTransfer(@CurrentUser() actor: AuthenticatedUser, @Body() dto: AffTransferDto): Promise<ApiResult<null>> {
    await this.self.transferAffQuota(actor, dto.quota);
    return new ApiResult(null, 'user.transfer_done');
  }

  @AdminOnly()
  @Get('search')
  @PagedListQuery(['keyword', 'group'])
  search(@Query() query: Record<string, string>): Promise<Page<UserView>> {
    return this.management.search(String(query.keyword ?? ''), String(query.group ?? ''), parsePageQuery(query));
  }

  @AdminOnly()
  @Post('manage')
  manage(@CurrentUser() actor: AuthenticatedUser, @Body() dto: ManageUserDto): Promise<{ status: number; role: number }> {
    return this.management.manage(actor, dto.id, dto.action);
  }

  @AdminOnly()
  @Get()
  @PagedListQuery()
  list(@Query() query: Record<string, string>): Promise<Page<UserView>> {
    return this.management.list(parsePageQuery(query));
  }

  @AdminOnly()
  @Post()
  async create(@CurrentUser() actor: AuthenticatedUser, @Body() dto: CreateUserDto): Promise<null> {
    await this.management.create(actor, dto);
    return null;
  }

  @AdminOnly()
  @Put()
  update(@CurrentUser() actor: AuthenticatedUser, @Body() dto: UpdateUserDto): Promise<UserView> {
    return this.management.update(actor, dto);
  }
}
