import type { MediaCharge } from '../billing/billing-formula';
import { imageUnitPrice, type AudioPrices, type ImagePrices } from '../pricing/media-prices';
import type { JsonObject } from './wire/wire-format';
import type { RelayEndpoint } from './relay-endpoints';
import { RelayError } from './relay-error';
import { multipartField } from './request-body';

/** The media price tables the relay bills from (the typed options, read from memory). */
export interface MediaTables {
  ImagePrices: ImagePrices;
  AudioPrices: AudioPrices;
}

/** What a client's request asks for, as the media prices read it. */
export interface MediaRequest {
  endpoint: RelayEndpoint;
  model: string;
  /** The JSON body; undefined for multipart uploads. */
  body?: JsonObject;
  rawBody: Buffer;
  contentType: string;
}

/** OpenAI lets one call ask for at most 10 images. */
const MAX_IMAGES_PER_CALL = 10;
/**
 * Speech is billed by an estimate of its length from the text: about 15 characters a second
 * for alphabetic scripts (150 words a minute) and 4 a second for CJK characters, divided by the
 * request's speed. Measuring the generated audio would need a decoder for every output format.
 */
const SPEECH_CHARACTERS_PER_SECOND = 15;
const SPEECH_CJK_CHARACTERS_PER_SECOND = 4;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;
/**
 * An upload that is not WAV is taken to be 128 kbps (16000 bytes a second, the common MP3
 * rate) until the answer says its duration.
 */
const UPLOAD_BYTES_PER_SECOND = 16_000;

/**
 * The per-unit charge of a media call when its model has a media price, else undefined (the
 * call is billed by ModelPrice or ModelRatio, as before):
 * - image generations and edits: per image at the request's size and quality, n images;
 * - speech: per second of output, estimated from the text;
 * - transcriptions and translations: per second of input, from the upload (WAV: exact; other
 *   formats: at 128 kbps) until the answer's duration replaces it (`measuredByAnswer`).
 * A listed model asked for a size or quality its table does not price is refused (400), so
 * nothing is billed by a price the administrator did not set.
 */
export function mediaChargeFor(request: MediaRequest, tables: MediaTables): MediaCharge | undefined {
  switch (request.endpoint) {
    case 'images':
    case 'image_edits':
      return imageCharge(request, tables.ImagePrices[request.model]);
    case 'audio_speech': {
      const perSecond = tables.AudioPrices[request.model]?.output;
      return perSecond === undefined ? undefined : { unit: 'second', count: speechSeconds(request.body), price: perSecond, basis: 'text' };
    }
    case 'audio_transcription':
    case 'audio_translation': {
      const perSecond = tables.AudioPrices[request.model]?.input;
      return perSecond === undefined ? undefined : { unit: 'second', count: uploadSeconds(request.rawBody, request.contentType), price: perSecond, basis: 'upload' };
    }
    default:
      return undefined;
  }
}

function imageCharge(request: MediaRequest, sizes: ImagePrices[string] | undefined): MediaCharge | undefined {
  if (!sizes) return undefined;
  const size = field(request, 'size');
  const quality = field(request, 'quality');
  const price = imageUnitPrice(sizes, size, quality);
  if (price === undefined) {
    const asked = [size && `size ${size}`, quality && `quality ${quality}`].filter(Boolean).join(' and ') || 'no size or quality';
    throw new RelayError('invalid_request', `The model ${request.model} has no image price for ${asked}; ask the administrator to price it in ImagePrices`, 400);
  }
  return { unit: 'image', count: imageCount(field(request, 'n')), price, size: size ?? '', quality: quality ?? '' };
}

/** A field of the request as text, from the JSON body or the multipart form. */
function field(request: MediaRequest, name: string): string | undefined {
  if (request.body) {
    const value = request.body[name];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  }
  return multipartField(request.rawBody, name) || undefined;
}

function imageCount(n: string | undefined): number {
  if (n === undefined) return 1;
  const count = Number(n);
  if (!Number.isInteger(count) || count < 1 || count > MAX_IMAGES_PER_CALL) throw new RelayError('invalid_request', `n must be an integer from 1 to ${MAX_IMAGES_PER_CALL}`, 400);
  return count;
}

/** Whole seconds of speech the text makes, at least one. */
export function speechSeconds(body: JsonObject | undefined): number {
  const text = typeof body?.input === 'string' ? body.input : '';
  const cjk = text.match(CJK)?.length ?? 0;
  const others = [...text].length - cjk;
  const speed = typeof body?.speed === 'number' && body.speed >= 0.25 && body.speed <= 4 ? body.speed : 1;
  return Math.max(1, Math.ceil((others / SPEECH_CHARACTERS_PER_SECOND + cjk / SPEECH_CJK_CHARACTERS_PER_SECOND) / speed));
}

/** Whole seconds of the uploaded audio, at least one: exact for WAV, at 128 kbps otherwise. */
export function uploadSeconds(rawBody: Buffer, contentType: string): number {
  const file = multipartFile(rawBody, contentType, 'file') ?? rawBody;
  const seconds = wavSeconds(file) ?? file.length / UPLOAD_BYTES_PER_SECOND;
  return Math.max(1, Math.ceil(seconds));
}

/** The seconds an answer of a transcription or translation reports: `duration` (verbose_json) or `usage.seconds`. */
export function answeredSeconds(answer: unknown): number | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { duration, usage } = answer as { duration?: unknown; usage?: { type?: unknown; seconds?: unknown } };
  const seconds = typeof duration === 'number' ? duration : usage?.type === 'duration' && typeof usage.seconds === 'number' ? usage.seconds : undefined;
  // Believed only within a day: a broken upstream must not bill a year.
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0 || seconds > 86_400) return undefined;
  return Math.max(1, Math.ceil(seconds));
}

/** The bytes of a multipart form's file part, or undefined when the form cannot be read that far. */
function multipartFile(body: Buffer, contentType: string, name: string): Buffer | undefined {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return undefined;
  const at = body.indexOf(`name="${name}"`);
  if (at < 0) return undefined;
  const start = body.indexOf('\r\n\r\n', at);
  if (start < 0) return undefined;
  const end = body.indexOf(`\r\n--${boundary}`, start + 4);
  return body.subarray(start + 4, end < 0 ? body.length : end);
}

/** A RIFF/WAVE file's duration from its `fmt ` byte rate and `data` size. */
function wavSeconds(file: Buffer): number | undefined {
  if (file.length < 12 || file.toString('latin1', 0, 4) !== 'RIFF' || file.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let byteRate = 0;
  for (let offset = 12; offset + 8 <= file.length; ) {
    const id = file.toString('latin1', offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 16 <= file.length) byteRate = file.readUInt32LE(offset + 16);
    // A streamed WAV may declare a data size it never had: count the bytes that are there.
    if (id === 'data') return byteRate > 0 ? Math.min(size, file.length - offset - 8) / byteRate : undefined;
    offset += 8 + size + (size % 2);
  }
  return undefined;
}
