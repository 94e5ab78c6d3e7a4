import { CHANNEL_TYPE } from '../channels/channel-types';

/**
 * How to ask a provider for an account's balance: one row per channel type that has a balance
 * API (new-api's list), as data. The query goes to the channel's base URL when one is set
 * (regional and proxy endpoints), else to `officialBaseUrl`.
 */
export interface BalanceQuery {
  officialBaseUrl: string;
  /** Path (and query) under the base URL. */
  path: (now: Date) => string;
  headers: (key: string) => Record<string, string>;
  /** The balance in the provider's own currency, from its JSON answer; undefined when the shape is wrong. */
  read: (answer: unknown) => number | undefined;
  /** OpenAI's older API answers the limit and the usage in two calls. */
  usagePath?: (now: Date) => string;
  readUsage?: (answer: unknown) => number | undefined;
}

type Json = Record<string, unknown>;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const object = (value: unknown): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined);
/** Providers send amounts as numbers or as decimal strings ("110.00"). */
const amount = (value: unknown): number | undefined => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(parsed) ? parsed : undefined;
};
const day = (date: Date) => date.toISOString().slice(0, 10);

/** OpenAI: the hard limit (USD) minus the last 100 days of usage (cents). */
const openai: BalanceQuery = {
  officialBaseUrl: 'https://api.openai.com',
  path: () => '/v1/dashboard/billing/subscription',
  headers: bearer,
  read: (answer) => amount(object(answer)?.hard_limit_usd),
  usagePath: (now) => `/v1/dashboard/billing/usage?start_date=${day(new Date(now.getTime() - 100 * 86_400_000))}&end_date=${day(new Date(now.getTime() + 86_400_000))}`,
  readUsage: (answer) => {
    const cents = amount(object(answer)?.total_usage);
    return cents === undefined ? undefined : cents / 100;
  },
};

/** By channel type; the catalogue's `balance` marks the same types (a spec checks both agree) with the currency. */
export const BALANCE_QUERIES: Readonly<Record<number, BalanceQuery>> = {
  [CHANNEL_TYPE.OPENAI]: openai,
  // Custom: only with a base URL of its own (checked by the caller), answering like OpenAI.
  [CHANNEL_TYPE.CUSTOM]: { ...openai, officialBaseUrl: '' },
  // Another gateway of this kind (new-api, one-api, this one): OpenAI's billing answers, at its own address.
  [CHANNEL_TYPE.GATEWAY]: { ...openai, officialBaseUrl: '' },
  // OpenRouter: {"data": {"total_credits": 20, "total_usage": 4.5}}
  [CHANNEL_TYPE.OPENROUTER]: {
    officialBaseUrl: 'https://openrouter.ai/api',
    path: () => '/v1/credits',
    headers: bearer,
    read: (answer) => {
      const data = object(object(answer)?.data);
      const credits = amount(data?.total_credits);
      const usage = amount(data?.total_usage);
      return credits === undefined || usage === undefined ? undefined : credits - usage;
    },
  },
  // AIProxy: {"success": true, "data": {"totalPoints": 12.3}}, key in Api-Key.
  [CHANNEL_TYPE.AIPROXY]: {
    officialBaseUrl: 'https://aiproxy.io',
    path: () => '/api/report/getUserOverview',
    headers: (key) => ({ 'api-key': key }),
    read: (answer) => (object(answer)?.success === true ? amount(object(object(answer)?.data)?.totalPoints) : undefined),
  },
  // Moonshot: {"code": 0, "data": {"available_balance": 49.58, …}, "status": true} (CNY)
  [CHANNEL_TYPE.MOONSHOT]: {
    officialBaseUrl: 'https://api.moonshot.cn',
    path: () => '/v1/users/me/balance',
    headers: bearer,
    read: (answer) => amount(object(object(answer)?.data)?.available_balance),
  },
  // SiliconFlow: {"code": 20000, "status": true, "data": {"totalBalance": "88.00", …}} (CNY)
  [CHANNEL_TYPE.SILICONFLOW]: {
    officialBaseUrl: 'https://api.siliconflow.cn',
    path: () => '/v1/user/info',
    headers: bearer,
    read: (answer) => amount(object(object(answer)?.data)?.totalBalance),
  },
  // DeepSeek: {"is_available": true, "balance_infos": [{"currency": "CNY", "total_balance": "110.00", …}]}
  [CHANNEL_TYPE.DEEPSEEK]: {
    officialBaseUrl: 'https://api.deepseek.com',
    path: () => '/user/balance',
    headers: bearer,
    read: (answer) => {
      const infos = object(answer)?.balance_infos;
      if (!Array.isArray(infos)) return undefined;
      const info = infos.map(object).find((entry) => entry?.currency === 'CNY') ?? object(infos[0]);
      return amount(info?.total_balance);
    },
  },
};
