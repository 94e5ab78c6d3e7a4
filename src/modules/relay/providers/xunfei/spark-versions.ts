import { CHANNEL_TYPE, defaultOther } from '../../../channels/channel-types';
import { RelayError } from '../../relay-error';

/** Where one Spark version is served, and what its chat frames call it. */
export interface SparkVersion {
  /** The WebSocket path under the base URL. */
  path: string;
  /** `parameter.chat.domain` of the request frame. */
  domain: string;
  /** The version takes a `system` message (Max and Ultra); the others get its text in the first user turn. */
  takesSystem: boolean;
}

/**
 * Spark's versions, as its WebSocket reference lists them (Lite, Pro, Pro-128K, Max, Max-32K,
 * 4.0 Ultra; v2.1 is the retired V2 that one-api channels still name). The key is the version
 * a channel's `other` field or a model name gives.
 */
const SPARK_VERSIONS: Readonly<Record<string, SparkVersion>> = {
  'v1.1': { path: '/v1.1/chat', domain: 'lite', takesSystem: false },
  'v2.1': { path: '/v2.1/chat', domain: 'generalv2', takesSystem: false },
  'v3.1': { path: '/v3.1/chat', domain: 'generalv3', takesSystem: false },
  'pro-128k': { path: '/chat/pro-128k', domain: 'pro-128k', takesSystem: false },
  'v3.5': { path: '/v3.5/chat', domain: 'generalv3.5', takesSystem: true },
  'max-32k': { path: '/chat/max-32k', domain: 'max-32k', takesSystem: true },
  'v4.0': { path: '/v4.0/chat', domain: '4.0Ultra', takesSystem: true },
};

/** Other spellings of a version: one-api's for the newer endpoints. */
const VERSION_ALIASES: Readonly<Record<string, string>> = { 'v3.1-128k': 'pro-128k', 'v3.5-32k': 'max-32k' };

/** Model names (lower case) that name a version by the product's name rather than its number, as one-api's model list does. */
const MODEL_VERSIONS: Readonly<Record<string, string>> = {
  'spark-lite': 'v1.1',
  'spark-pro': 'v3.1',
  'spark-pro-128k': 'pro-128k',
  'spark-max': 'v3.5',
  'spark-max-32k': 'max-32k',
  'spark-4.0-ultra': 'v4.0',
};

/** The models fetch_models offers for a Spark channel (Spark has no model-list API). */
export const SPARK_KNOWN_MODELS: readonly string[] = ['SparkDesk', ...Object.keys(SPARK_VERSIONS).filter((version) => version.startsWith('v')).map((version) => `SparkDesk-${version}`), 'Spark-Lite', 'Spark-Pro', 'Spark-Pro-128K', 'Spark-Max', 'Spark-Max-32K', 'Spark-4.0-Ultra'];

/** A version Spark may add later (`v5.0`): served at `/v5.0/chat` as domain `generalv5.0`, as new-api guesses. */
const FUTURE_VERSION = /^v\d+(\.\d+)?$/;

/**
 * The Spark version of one call: named by the model (`SparkDesk-v3.5`, `Spark-Max`), else the
 * channel's `other` field, else the catalogue's default. A version that is none of Spark's is
 * the channel's fault (its setting), so another channel may answer.
 */
export function sparkVersion(model: string, other: string): SparkVersion {
  const name = model.trim().toLowerCase();
  const suffix = /^sparkdesk-(.+)$/.exec(name)?.[1];
  const named = MODEL_VERSIONS[name] ?? suffix;
  const version = (named ?? (other.trim() || defaultOther(CHANNEL_TYPE.XUNFEI))).toLowerCase();
  const canonical = VERSION_ALIASES[version] ?? version;
  const known = SPARK_VERSIONS[canonical];
  if (known) return known;
  if (FUTURE_VERSION.test(canonical)) return { path: `/${canonical}/chat`, domain: `general${canonical}`, takesSystem: true };
  throw new RelayError('channel:bad_response', `The iFlytek Spark version ${version} is not one Spark serves (v1.1, v3.1, v3.5, v4.0, pro-128k, max-32k)`, 502);
}
