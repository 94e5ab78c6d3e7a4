import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { OptionsService } from '../options/options.service';
import { SetupService } from './setup.service';

/** The public system status the console reads on every start (cached there under `status`). */
@Injectable()
export class StatusService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsService,
    private readonly setup: SetupService,
  ) {}

  async status(): Promise<Record<string, unknown>> {
    const o = this.options;
    const onlineTopUp = o.get('PayAddress') !== '' && o.get('EpayId') !== '' && o.get('EpayKey') !== '';
    return {
      version: this.config.version,
      start_time: this.config.startTime,
      setup: await this.setup.isInitialised(),
      system_name: o.get('SystemName'),
      logo: o.get('Logo'),
      footer_html: o.get('Footer'),
      server_address: o.get('ServerAddress'),
      quota_per_unit: o.getNumber('QuotaPerUnit'),
      display_in_currency: o.getBool('DisplayInCurrencyEnabled'),
      display_token_stat: o.getBool('DisplayTokenStatEnabled'),
      enable_drawing: o.getBool('DrawingEnabled'),
      enable_task: o.getBool('TaskEnabled'),
      enable_data_export: o.getBool('DataExportEnabled'),
      data_export_default_time: o.get('DataExportDefaultTime'),
      default_collapse_sidebar: o.getBool('DefaultCollapseSidebar'),
      mj_notify_enabled: o.getBool('MjNotifyEnabled'),
      chats: o.getJson('Chats'),
      pay_methods: o.getJson('PayMethods'),
      docs_link: o.get('general_setting.docs_link'),
      chat_link: o.get('ChatLink'),
      chat_link2: o.get('ChatLink2'),
      top_up_link: o.get('TopUpLink'),
      turnstile_check: o.getBool('TurnstileCheckEnabled'),
      turnstile_site_key: o.get('TurnstileSiteKey'),
      email_verification: o.getBool('EmailVerificationEnabled'),
      register_enabled: o.getBool('RegisterEnabled'),
      password_login_enabled: o.getBool('PasswordLoginEnabled'),
      password_register_enabled: o.getBool('PasswordRegisterEnabled'),
      github_oauth: o.getBool('GitHubOAuthEnabled'),
      github_client_id: o.get('GitHubClientId'),
      oidc_enabled: o.getBool('oidc.enabled'),
      oidc_authorization_endpoint: o.get('oidc.authorization_endpoint'),
      oidc_client_id: o.get('oidc.client_id'),
      linuxdo_oauth: o.getBool('LinuxDOOAuthEnabled'),
      linuxdo_client_id: o.get('LinuxDOClientId'),
      wechat_login: o.getBool('WeChatAuthEnabled'),
      wechat_qrcode: o.get('WeChatAccountQRCodeImageURL'),
      telegram_oauth: o.getBool('TelegramOAuthEnabled'),
      telegram_bot_name: o.get('TelegramBotName'),
      self_use_mode_enabled: o.getBool('SelfUseModeEnabled'),
      demo_site_enabled: o.getBool('DemoSiteEnabled'),
      enable_online_topup: onlineTopUp,
      price: o.getNumber('Price'),
      min_topup: o.getNumber('MinTopUp'),
      usd_exchange_rate: o.getNumber('USDExchangeRate'),
      default_use_auto_group: o.getBool('DefaultUseAutoGroup'),
    };
  }
}
