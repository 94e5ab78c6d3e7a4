/**
 * Baidu's ERNIE endpoints (the legacy wenxinworkshop API, access-token auth), as data: each
 * model name clients use → the path segment Baidu serves it under. Names are matched in lower
 * case; a name not listed goes up as it is, lower-cased, which is how Baidu names the
 * endpoints of custom deployments.
 */
export const ERNIE_CHAT_ENDPOINTS: Readonly<Record<string, string>> = {
  'ernie-4.0-8k': 'completions_pro',
  'ernie-4.0': 'completions_pro',
  'ernie-bot-4': 'completions_pro',
  'ernie-4.0-8k-preview': 'ernie-4.0-8k-preview',
  'ernie-4.0-8k-latest': 'ernie-4.0-8k-latest',
  'ernie-4.0-turbo-8k': 'ernie-4.0-turbo-8k',
  'ernie-4.0-turbo-128k': 'ernie-4.0-turbo-128k',
  'ernie-3.5-8k': 'completions',
  'ernie-bot': 'completions',
  'ernie-3.5-128k': 'ernie-3.5-128k',
  'ernie-3.5-8k-preview': 'ernie-3.5-8k-preview',
  'ernie-3.5-8k-0205': 'ernie-3.5-8k-0205',
  'ernie-3.5-8k-1222': 'ernie-3.5-8k-1222',
  'ernie-3.5-4k-0205': 'ernie-3.5-4k-0205',
  'ernie-bot-8k': 'ernie_bot_8k',
  'ernie-speed-8k': 'ernie_speed',
  'ernie-speed': 'ernie_speed',
  'ernie-speed-128k': 'ernie-speed-128k',
  'ernie-lite-8k': 'ernie-lite-8k',
  'ernie-lite-8k-0308': 'ernie-lite-8k',
  'ernie-lite-8k-0922': 'eb-instant',
  'ernie-bot-turbo': 'eb-instant',
  'ernie-tiny-8k': 'ernie-tiny-8k',
  'ernie-char-8k': 'ernie-char-8k',
  'ernie-functions-8k': 'ernie-func-8k',
};

/** The embedding models, each → its path segment under `…/wenxinworkshop/embeddings/`. */
export const ERNIE_EMBEDDING_ENDPOINTS: Readonly<Record<string, string>> = {
  'embedding-v1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

/**
 * Baidu's error codes (error_code in an HTTP 200 answer) by what they mean for the relay:
 * `token` an access token Baidu no longer takes (fetched again once), `key` the application's
 * credentials or rights are broken (auto-disable), `quota` the account's request allowance is
 * spent (auto-disable), `rateLimit` throttled, `server` Baidu's own fault (failover).
 * Codes not listed are the request's fault (invalid parameters, an unknown model).
 */
export const BAIDU_ERROR_CODES = {
  token: [110, 111],
  key: [6, 14, 15],
  quota: [17, 19],
  rateLimit: [4, 18, 336501, 336502],
  server: [1, 2, 13, 336000, 336100, 500000],
} as const;

/** The ERNIE models fetch_models offers (the legacy API has no list of a key's endpoints). */
export const ERNIE_KNOWN_MODELS: readonly string[] = [...Object.keys(ERNIE_CHAT_ENDPOINTS), ...Object.keys(ERNIE_EMBEDDING_ENDPOINTS)];

/** The path segment of a model under `chat/` or `embeddings/`. */
export function ernieEndpoint(model: string, embeddings: boolean): string {
  const name = model.toLowerCase();
  return (embeddings ? ERNIE_EMBEDDING_ENDPOINTS : ERNIE_CHAT_ENDPOINTS)[name] ?? name;
}
