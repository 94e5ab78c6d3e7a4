import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { OptionsService } from '../options/options.service';
import { SetupService } from './setup.service';

/**
 * The public system status the console reads on every start (cached there under `status`):
 * every setting declared with a `status` field, plus what the server itself knows.
 */
@Injectable()
export class StatusService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsService,
    private readonly setup: SetupService,
  ) {}

  async status(): Promise<Record<string, unknown>> {
    const o = this.options;
    return {
      ...o.published(),
      version: this.config.version,
      releases_url: this.config.releasesUrl,
      start_time: this.config.startTime,
      setup: await this.setup.isInitialised(),
      enable_online_topup:
        (o.get('PayAddress') !== '' && o.get('EpayId') !== '' && o.get('EpayKey') !== '') || (o.get('StripeApiSecret') !== '' && o.get('StripeWebhookSecret') !== ''),
    };
  }
}
