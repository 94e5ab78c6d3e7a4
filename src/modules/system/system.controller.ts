import { Body, Controller, Get, Post } from '@nestjs/common';
import { Public } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/envelope';
import { OptionsService } from '../options/options.service';
import { SetupDto } from './dto/setup.dto';
import { SetupService, SetupStatus } from './setup.service';
import { StatusService } from './status.service';

@Controller('api')
export class SystemController {
  constructor(
    private readonly statusService: StatusService,
    private readonly setupService: SetupService,
    private readonly options: OptionsService,
  ) {}

  @Public()
  @Get('status')
  status(): Promise<Record<string, unknown>> {
    return this.statusService.status();
  }

  @Public()
  @Get('setup')
  setupStatus(): Promise<SetupStatus> {
    return this.setupService.status();
  }

  @Public()
  @Post('setup')
  async setup(@Body() dto: SetupDto): Promise<ApiResult<null>> {
    await this.setupService.setup(dto);
    return new ApiResult(null, 'setup.completed');
  }

  @Public()
  @Get('notice')
  notice(): string {
    return this.options.get('Notice');
  }

  @Public()
  @Get('about')
  about(): string {
    return this.options.get('About');
  }

  @Public()
  @Get('home_page_content')
  homePageContent(): string {
    return this.options.get('HomePageContent');
  }
}
