import { Injectable } from '@nestjs/common';
import type { Dispatcher } from 'undici';
import type { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { AbilitiesRepository } from '../channels/abilities.repository';
import { ModelMetaService } from '../models/model-meta.service';
import { shapes } from '../options/option-definitions';
import { OptionsService } from '../options/options.service';
import { OutboundGuardService, outboundRefusal, refusalToAppError } from '../outbound/outbound-guard.service';
import { OutboundHttpService } from '../outbound/outbound-http.service';
import { parsePicks } from './dto/ratio-sync.dto';
import { applyPicks, diffPrices, FIELD_OPTION_KEYS, filterRows, PriceMaps } from './price-diff';
import type { RatioSyncApplyResult, RatioSyncDiff, RatioSyncDiffRequest, RatioSyncSource } from './ratio-sync.wire';
import { readSource, UnreadableSourceError, UpstreamPrices } from './upstream-prices';

/** Longest wait for a source, answer included. */
export const SOURCE_TIMEOUT_MS = 15_000;
/** Largest answer read; a real price table is well under 1 MB. */
export const MAX_SOURCE_BYTES = 5 * 1024 * 1024;
/** Where a gateway source given without a path publishes its prices. */
const DEFAULT_GATEWAY_PATH = '/api/pricing';

class SourceTooLargeError extends Error {}

/**
 * Ratio sync: reads another gateway's prices or a published price list through the outbound
 * guard, compares them per model and field with the price maps here, and writes the rows root
 * picks as one audited settings change, then fills the metadata the source carries for those
 * models (only fields still empty here). Nothing is written by fetching or comparing.
 */
@Injectable()
export class RatioSyncService {
  constructor(
    private readonly options: OptionsService,
    private readonly http: OutboundHttpService,
    private readonly guard: OutboundGuardService,
    private readonly abilities: AbilitiesRepository,
    private readonly modelMeta: ModelMetaService,
  ) {}

  sources(): RatioSyncSource[] {
    return this.options.get('RatioSyncSources');
  }

  /** Replaces the list; each address is judged by the guard now, and again on every fetch. */
  async saveSources(actor: AuthenticatedUser, raw: unknown[]): Promise<RatioSyncSource[]> {
    const sources = raw.map(trimmedSource);
    if (!shapes.ratioSyncSources.test(sources)) throw new AppError(shapes.ratioSyncSources.rule, { key: 'RatioSyncSources' });
    for (const source of sources) await this.guard.assertBaseUrlAllowed(source.url);
    await this.options.update(actor, 'RatioSyncSources', JSON.stringify(sources));
    return this.sources();
  }

  async diff(request: RatioSyncDiffRequest): Promise<RatioSyncDiff> {
    const source = this.sourceNamed(request.source);
    const upstream = await this.read(source);
    const served = new Set(await this.abilities.enabledModels());
    const rows = diffPrices(this.localMaps(), upstream.models, served);
    return { source: source.name, format: upstream.format, upstream_models: upstream.models.size, rows: filterRows(rows, request), skipped: upstream.skipped };
  }

  /**
   * Writes the picked values (the ones root saw in the diff) into the price maps, as one audited
   * change; then fills the picked models' metadata from the source, read again (the picks carry
   * prices only). A source that cannot be read now refuses the apply before anything is written.
   */
  async apply(actor: AuthenticatedUser, sourceName: string, rows: unknown[]): Promise<RatioSyncApplyResult> {
    const source = this.sourceNamed(sourceName);
    const picks = parsePicks(rows);
    const picked = new Set(picks.map((pick) => pick.model));
    const meta = (await this.read(source)).meta.filter((entry) => picked.has(entry.model_name));
    const applied = applyPicks(this.localMaps(), picks);
    const values = Object.fromEntries(Object.entries(applied.maps).map(([key, map]) => [key, JSON.stringify(map, null, 2)]));
    const changes = { ...applied.changes, source: { from: null, to: `${source.name} (${source.url})` }, ...(meta.length > 0 && { metadata_offered: { from: null, to: meta.length } }) };
    await this.options.updateTogether(actor, values, { action: 'ratio_sync', changes });
    const filled = await this.modelMeta.fillFromSource(meta);
    return { models: applied.models, keys: Object.keys(applied.maps), metadata_models: filled.created + filled.filled };
  }

  private sourceNamed(name: string): RatioSyncSource {
    const source = this.sources().find((item) => item.name === name);
    if (!source) throw new AppError('ratio_sync.unknown_source', { name: name.slice(0, 64) });
    return source;
  }

  /** Fetches and reads the source; an answer it cannot read is refused naming the host. */
  private async read(source: RatioSyncSource): Promise<UpstreamPrices> {
    const url = sourceUrl(source);
    try {
      return readSource(source.kind, await this.fetchAnswer(url));
    } catch (error) {
      if (error instanceof UnreadableSourceError) throw new AppError(error.code, { ...error.params, host: url.host });
      throw error;
    }
  }

  private localMaps(): PriceMaps {
    return Object.fromEntries(Object.entries(FIELD_OPTION_KEYS).map(([field, key]) => [field, this.options.get(key)])) as PriceMaps;
  }

  /** One GET through the guard (and the worker when one is set), size-limited, within SOURCE_TIMEOUT_MS; the parsed JSON. */
  private async fetchAnswer(url: URL): Promise<unknown> {
    const host = url.host;
    const signal = AbortSignal.timeout(SOURCE_TIMEOUT_MS);
    let text: string;
    try {
      const answer = await this.http.sendOwn({ url, method: 'GET', headers: { accept: 'application/json' }, signal, headersTimeoutMs: SOURCE_TIMEOUT_MS, bodyTimeoutMs: SOURCE_TIMEOUT_MS });
      if (answer.statusCode >= 400) {
        discard(answer);
        throw new AppError('ratio_sync.http_status', { host, status: answer.statusCode });
      }
      text = await readLimited(answer, MAX_SOURCE_BYTES);
    } catch (error) {
      if (error instanceof AppError) throw error;
      const refusal = outboundRefusal(error);
      if (refusal) throw refusalToAppError(refusal);
      if (error instanceof SourceTooLargeError) throw new AppError('ratio_sync.too_large', { host, max: MAX_SOURCE_BYTES / 1024 / 1024 });
      if (signal.aborted || isTimeout(error)) throw new AppError('ratio_sync.timeout', { host, seconds: SOURCE_TIMEOUT_MS / 1000 });
      throw new AppError('ratio_sync.unreachable', { host });
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new AppError('ratio_sync.not_json', { host });
    }
  }
}

/** Only the three fields, trimmed: what the setting stores. */
function trimmedSource(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const { name, kind, url } = raw as Record<string, unknown>;
  return { name: typeof name === 'string' ? name.trim() : name, kind, url: typeof url === 'string' ? url.trim() : url };
}

/** The address fetched: a gateway given by its origin alone answers at /api/pricing. */
function sourceUrl(source: RatioSyncSource): URL {
  const url = new URL(source.url);
  if (source.kind === 'gateway' && (url.pathname === '' || url.pathname === '/')) url.pathname = DEFAULT_GATEWAY_PATH;
  return url;
}

/** The body as text, refused past `limit` bytes (a declared length is refused before reading). */
async function readLimited(answer: Dispatcher.ResponseData, limit: number): Promise<string> {
  if (Number(answer.headers['content-length'] ?? 0) > limit) {
    discard(answer);
    throw new SourceTooLargeError();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop by the throw closes the body.
  for await (const chunk of answer.body) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new SourceTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Drops an answer unread; the abort this causes is expected, not an error to report. */
function discard(answer: Dispatcher.ResponseData): void {
  answer.body.on('error', () => undefined);
  answer.body.destroy();
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string; code?: string } | null)?.name ?? '';
  const code = (error as { code?: string } | null)?.code ?? '';
  return /Timeout|AbortError/.test(name) || /TIMEOUT/.test(code);
}
