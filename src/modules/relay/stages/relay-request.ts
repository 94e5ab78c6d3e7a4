import type { MediaCharge, PriceSheet } from '../../billing/billing-formula';
import type { AutoGroupCandidate } from '../auto-group';
import type { PriorityTier } from '../caches/channel-cache.service';
import type { RelayChannel } from '../caches/relay-channel';
import type { InboundFormat } from '../formats/inbound-format';
import type { JsonObject } from '../wire/wire-format';
import type { Usage } from '../wire/usage';
import type { RelayCaller } from '../relay-caller';
import type { RateLimitTicket } from '../model-rate-limit/model-rate-limiter.service';
import type { CallerLimitTicket } from '../caller-rate-limit/caller-rate-limiter.service';
import type { EndpointSpec } from '../relay-endpoints';
import type { RequestTrace } from '../../tracing/relay-trace';
import type { UpstreamAbort } from '../upstream-client.service';
import type { BillingHold } from './billing-hold';

/** Where a request came in: which endpoint, in which client format. */
export interface RelayRoute {
  spec: EndpointSpec;
  inbound: InboundFormat;
  /** The console's playground: session auth, billed to the user. */
  playground: boolean;
  /** The model named in the path (Gemini's /models/{model}:generateContent), not the body. */
  pathModel?: string;
  /** Whether the answer streams, when the path says it (Gemini's :streamGenerateContent). */
  stream?: boolean;
  /** The stream goes out as one JSON array, not SSE (Gemini's :streamGenerateContent without alt=sse). */
  jsonArrayStream?: boolean;
  /** The call came over a WebSocket (Responses' WebSocket mode, Realtime): its events leave as frames, its log row says `ws`. */
  websocket?: true;
}

/** Everything one client request carries through its stages, from prepare to settle. */
export interface PreparedRequest {
  requestId: string;
  route: RelayRoute;
  caller: RelayCaller;
  model: string;
  /** The client's JSON body, parsed once (undefined for multipart uploads). */
  body?: JsonObject;
  rawBody: Buffer;
  contentType: string;
  /** The client's request headers. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  stream: boolean;
  sheet: PriceSheet;
  userGroupRatio: number | null;
  /** Set when a media price table bills the call per unit (images, audio seconds) instead of the sheet. */
  media: MediaCharge | undefined;
  /** The channels serving the model in the caller's group, by priority. */
  tiers: PriorityTier[];
  billing: BillingHold;
  /** The model request limit's admission, given back when the request fails; absent when the limit is off. */
  rateLimit?: RateLimitTicket;
  /** The token's and user's RPM/TPM admission; absent when neither has a limit. */
  callerLimit?: CallerLimitTicket;
  /** For a token in the `auto` group: the groups the tiers come from, in order (the caller's group is the first). */
  autoGroups?: AutoGroupCandidate[];
  startedAt: number;
  /** Channel ids tried, in order. */
  tried: number[];
  abort: UpstreamAbort;
  clientGone: () => boolean;
  /** The request's span, when tracing is on (set only then, so the object keeps its shape otherwise). */
  trace?: RequestTrace;
  /** When the request has a fallback chain: the performance.now() by which its one RELAY_TIMEOUT runs out. */
  deadline?: number;
  /** Set once a fallback model serves: the model the client asked for (`model` is then the fallback's). */
  requestedModel?: string;
  /** Set only for a call the response cache looked up and missed: the key its answer is stored under once settled. */
  responseCacheKey?: string;
}

/** A successful attempt: what was delivered and how to bill it. */
export interface Delivery {
  channel: RelayChannel;
  /** Which of the channel's keys served (its index). */
  keyIndex: number;
  upstreamModel: string;
  usage?: Usage;
  text: () => string;
  firstByteAt?: number;
  /** Seconds of audio the answer reports (a transcription's duration), which settle bills instead of the upload's estimate. */
  mediaSeconds?: number;
  /** A complete (not streamed) answer: the bytes the client got and their content type (what the response cache stores). */
  answer?: Buffer;
  answerType?: string;
}
