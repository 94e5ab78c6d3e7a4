import { Body, Controller, Get, Post, Put } from '@nestjs/common';
import { AdminOnly, AuthenticatedUser, CurrentUser, RootOnly } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { UpdateOptionDto } from './dto/update-option.dto';
import { OptionsService } from './options.service';
import type { OptionView } from './option.wire';

@Controller('api/option')
export class OptionsController {
  constructor(private readonly options: OptionsService) {}

  @AdminOnly()
  @Get()
  list(): OptionView[] {
    return this.options.list();
  }

  @AdminOnly()
  @Put()
  async update(@Body() dto: UpdateOptionDto, @CurrentUser() user: AuthenticatedUser): Promise<null> {
    await this.options.update(user, dto.key, dto.value);
    return null;
  }

  @RootOnly()
  @Post('rest_model_ratio')
  async resetModelRatio(@CurrentUser() user: AuthenticatedUser): Promise<ApiResult<null>> {
    await this.options.resetPricingBy(user);
    return new ApiResult(null, 'option.pricing_reset');
  }
}
