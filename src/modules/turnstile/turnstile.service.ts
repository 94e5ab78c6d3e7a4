import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { OptionsService } from '../options/options.service';

const SITEVERIFY_TIMEOUT_MS = 10_000;

/** Cloudflare Turnstile: checks the widget's token with the siteverify endpoint when the check is on. */
@Injectable()
export class TurnstileService {
  private readonly logger = new Logger(TurnstileService.name);

  constructor(
    private readonly options: OptionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Passes when the check is off or Cloudflare accepts the token; throws the user's message otherwise. */
  async verify(token: string | undefined, remoteIp: string | undefined): Promise<void> {
    if (!this.options.get('TurnstileCheckEnabled')) return;
    if (!token) throw new AppError('turnstile.token_missing');
    const form = new URLSearchParams({ secret: this.options.get('TurnstileSecretKey'), response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    let accepted = false;
    try {
      const response = await fetch(this.config.externalServices.turnstileSiteverifyUrl, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS),
      });
      accepted = response.ok && ((await response.json()) as { success?: unknown }).success === true;
    } catch (error) {
      this.logger.warn(`Turnstile siteverify unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!accepted) throw new AppError('turnstile.check_failed');
  }
}
