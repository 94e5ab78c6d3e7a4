import { Body, Controller, Delete, Get, Param, Post, Put, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthenticatedUser, CurrentUser } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { ParseRowIdPipe } from '../../common/http/query-fields';
import { RegisterPasskeyDto, RenamePasskeyDto } from './dto/passkey.dto';
import { PasskeysService } from './passkeys.service';
import type { PasskeyRegistrationOptionsView, PasskeyView } from './passkeys.wire';
import { RelyingPartyResolver } from './relying-party';

const passkeyId = new ParseRowIdPipe();

/** The personal page's passkeys: register, list, rename, delete. */
@Controller('api/user/passkeys')
export class PasskeysController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly relyingParty: RelyingPartyResolver,
  ) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser): Promise<PasskeyView[]> {
    return this.passkeys.list(user.id);
  }

  @Post('registration_options')
  registrationOptions(@CurrentUser() user: AuthenticatedUser, @Req() request: Request): Promise<PasskeyRegistrationOptionsView> {
    return this.passkeys.registrationOptions(user, this.relyingParty.resolve(request));
  }

  @Post()
  async register(@CurrentUser() user: AuthenticatedUser, @Body() dto: RegisterPasskeyDto, @Req() request: Request): Promise<ApiResult<PasskeyView>> {
    return new ApiResult(await this.passkeys.register(user, dto.response, dto.name, request.get('user-agent') ?? ''), 'passkey.registered');
  }

  @Put(':id')
  async rename(@CurrentUser() user: AuthenticatedUser, @Param('id', passkeyId) id: number, @Body() dto: RenamePasskeyDto): Promise<ApiResult<null>> {
    await this.passkeys.rename(user.id, id, dto.name);
    return new ApiResult(null, 'passkey.renamed');
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id', passkeyId) id: number): Promise<ApiResult<null>> {
    await this.passkeys.remove(user.id, id);
    return new ApiResult(null, 'passkey.deleted');
  }
}
