import { Controller, Get } from '@nestjs/common';
import { AuthenticatedUser, OptionalUser, Public } from '../../common/auth/auth.decorators';
import { ApiResultWithExtras } from '../../common/http/envelope';
import { PricingPageService } from './pricing-page.service';
import { PricingRow } from './pricing.wire';

@Controller('api/pricing')
export class PricingController {
  constructor(private readonly pricingPage: PricingPageService) {}

  /** `{success, data: rows, group_ratio, usable_group, vendors}`: the maps and the vendor list sit beside data, as the console reads them. */
  @Public()
  @Get()
  async get(@OptionalUser() viewer: AuthenticatedUser | undefined): Promise<ApiResultWithExtras<PricingRow[]>> {
    const page = await this.pricingPage.build(viewer?.group);
    return new ApiResultWithExtras(page.models, { group_ratio: page.group_ratio, usable_group: page.usable_group, vendors: page.vendors });
  }
}
