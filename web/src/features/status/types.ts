/** The public system status object from GET /api/status. */
export interface SystemStatus {
  system_name: string;
  logo: string;
  footer_html: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  enable_drawing: boolean;
  enable_task: boolean;
  enable_data_export: boolean;
  chats: unknown;
  pay_methods: unknown;
  data_export_default_time: string;
  default_collapse_sidebar: boolean;
  mj_notify_enabled: boolean;
  docs_link: string;
  chat_link: string;
  chat_link2: string;
  version: string;
  /** Where the update check reads the latest release; empty when none is configured. */
  releases_url: string;
  start_time: number;
  turnstile_check: boolean;
  turnstile_site_key: string;
  email_verification: boolean;
  password_login_enabled: boolean;
  password_register_enabled: boolean;
  register_enabled: boolean;
  github_oauth: boolean;
  github_client_id: string;
  oidc_enabled: boolean;
  oidc_authorization_endpoint: string;
  oidc_client_id: string;
  wechat_login: boolean;
  wechat_qrcode: string;
  telegram_oauth: boolean;
  telegram_bot_name: string;
  linuxdo_oauth: boolean;
  linuxdo_client_id: string;
  saml_enabled: boolean;
  self_use_mode_enabled: boolean;
  demo_site_enabled: boolean;
  enable_online_topup: boolean;
  price: number;
  /** The smallest online top-up amount (MinTopUp). */
  min_topup: number;
  usd_exchange_rate: number;
  default_use_auto_group: boolean;
  top_up_link: string;
  server_address: string;
  /** False until first-run setup has been completed. */
  setup: boolean;
}
