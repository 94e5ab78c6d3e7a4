import type { JsonObject } from '../../wire/wire-format';
import type { AnswerError } from '../adaptor';

/**
 * Zhipu's business error codes (open.bigmodel.cn's and docs.z.ai's error-code table) in the
 * relay's terms: a key or account that cannot work is a bad key (401: auto-disable), arrears an
 * exhausted account (`insufficient_quota`, with OpenAI's 429: auto-disable and failover),
 * throttling a rate limit, internal errors a provider fault. Codes not listed keep their status.
 */
const ZHIPU_ERRORS: Readonly<Record<string, { status: number; code?: string }>> = {
  // Authentication failed, header missing, token invalid, token expired, token refused.
  '1000': { status: 401 },
  '1001': { status: 401 },
  '1002': { status: 401 },
  '1003': { status: 401 },
  '1004': { status: 401 },
  // The account is inactive, does not exist, is locked, or was locked for irregular activity.
  '1110': { status: 401 },
  '1111': { status: 401 },
  '1112': { status: 401 },
  '1121': { status: 401 },
  // The account is in arrears.
  '1113': { status: 429, code: 'insufficient_quota' },
  // Concurrency, frequency and daily limits.
  '1302': { status: 429 },
  '1303': { status: 429 },
  '1304': { status: 429 },
  '1305': { status: 429 },
  // Internal error, network error.
  '500': { status: 500 },
  '1234': { status: 500 },
};

/**
 * A Zhipu error in the relay's terms: `code` is Zhipu's business code (a number in v3's answers,
 * a string in v4's), `status` the answer's HTTP status (used for codes the table does not know;
 * a v3 error inside a 200 answer is then the request's fault, 400).
 */
export function zhipuError(code: unknown, message: unknown, status: number): AnswerError {
  const known = ZHIPU_ERRORS[String(code)];
  const text = typeof message === 'string' && message ? message : `Zhipu refused the request (code ${String(code)})`;
  return { status: known?.status ?? (status >= 400 ? status : 400), message: text, code: known?.code ?? (code === undefined ? undefined : String(code)) };
}

/** The error of a v4 (OpenAI-shaped) body, `{"error": {"code": "1113", "message": …}}`, or undefined when it names none. */
export function zhipuV4Error(body: unknown, status: number): AnswerError | undefined {
  const error = typeof body === 'object' && body !== null ? (body as JsonObject).error : undefined;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as JsonObject;
  return code === undefined || code === null ? undefined : zhipuError(code, message, status);
}
