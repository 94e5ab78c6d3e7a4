import { Controller, Get } from '@nestjs/common';
import { AdminOnly } from '../../common/auth/auth.decorators';
import { OptionsService } from '../options/options.service';

@Controller('api/group')
export class GroupsController {
  constructor(private readonly options: OptionsService) {}

  /** Every group that has a ratio. */
  @AdminOnly()
  @Get()
  list(): string[] {
    return Object.keys(this.options.get('GroupRatio'));
  }
}
