import { Module } from '@nestjs/common';
import { OptionsModule } from '../options/options.module';
import { TurnstileGuard } from './turnstile.guard';
import { TurnstileService } from './turnstile.service';

@Module({
  imports: [OptionsModule],
  providers: [TurnstileService, TurnstileGuard],
  exports: [TurnstileService, TurnstileGuard],
})
export class TurnstileModule {}
