import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { OptionsService } from '../../options/options.service';
import { OutboundGuardService, outboundRefusal, refusalToAppError } from '../../outbound/outbound-guard.service';
import { ExternalIdentity } from './external-identity';

const WECHAT_SERVER_TIMEOUT_MS = 10_000;

/**
 * WeChat sign-in through a WeChat server (the official-account companion service): the
 * user scans the QR code, the account replies with a code valid three minutes, and the
 * WeChat server trades that code for the user's openid.
 */
@Injectable()
export class WeChatProvider {
  private readonly logger = new Logger(WeChatProvider.name);

  constructor(
    private readonly options: OptionsService,
    private readonly outbound: OutboundGuardService,
  ) {}

  enabled(): boolean {
    return this.options.get('WeChatAuthEnabled');
  }

  async exchange(code: string): Promise<ExternalIdentity> {
    let answer: { success?: boolean; message?: string; data?: unknown };
    try {
      const url = new URL(`${this.options.get('WeChatServerAddress').replace(/\/+$/, '')}/api/wechat/user`);
      url.searchParams.set('code', code);
      // The WeChat server is an address an admin typed: it goes through the outbound guard like every channel.
      const response = await this.outbound.getText(url, { Authorization: this.options.get('WeChatServerToken') }, WECHAT_SERVER_TIMEOUT_MS);
      answer = JSON.parse(response.text) as typeof answer;
    } catch (error) {
      const refused = outboundRefusal(error);
      if (refused) throw refusalToAppError(refused);
      this.logger.warn(`WeChat server unreachable: ${error instanceof Error ? error.message : String(error)}`);
      throw new AppError('oauth.exchange_failed', { provider: 'WeChat' });
    }
    if (!answer.success || typeof answer.data !== 'string' || answer.data === '') throw new AppError('oauth.wechat_code_invalid');
    return { column: 'wechat_id', id: answer.data, displayName: '', email: '' };
  }
}
