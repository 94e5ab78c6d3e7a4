import { IsArray, IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { AppError } from '../../../common/errors/app-error';
import { isRatio } from '../../options/option-definitions';
import { RATIO_SYNC_FIELDS } from '../price-diff';
import type { RatioSyncField, RatioSyncPick } from '../ratio-sync.wire';
import { isModelName } from '../upstream-prices';

/** PUT /api/ratio_sync/sources: the whole list; each entry is checked by the setting's shape. */
export class SaveRatioSyncSourcesDto {
  @IsArray()
  sources: unknown[];
}

/** POST /api/ratio_sync/diff. */
export class RatioSyncDiffDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  source: string;

  @IsOptional()
  @IsBoolean()
  only_changed?: boolean;

  @IsOptional()
  @IsBoolean()
  only_new?: boolean;

  @IsOptional()
  @IsBoolean()
  only_served?: boolean;
}

/** POST /api/ratio_sync/apply; the rows are read by parsePicks. */
export class RatioSyncApplyDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  source: string;

  @IsArray()
  rows: unknown[];
}

/** More rows than any price table holds. */
const MAX_PICKS = 50_000;
const isPickValue = (value: unknown): value is number | null => value === null || isRatio(value);
const isPickFields = (fields: unknown): fields is RatioSyncPick['fields'] =>
  typeof fields === 'object' &&
  fields !== null &&
  !Array.isArray(fields) &&
  Object.keys(fields).length > 0 &&
  Object.entries(fields).every(([field, value]) => RATIO_SYNC_FIELDS.includes(field as RatioSyncField) && isPickValue(value));

/** The picked rows, each a model name and at least one known field set to a price value or null. */
export function parsePicks(rows: unknown[]): RatioSyncPick[] {
  if (rows.length === 0) throw new AppError('ratio_sync.no_rows');
  if (rows.length > MAX_PICKS) throw new AppError('ratio_sync.invalid_pick', { index: MAX_PICKS });
  return rows.map((row, index) => {
    const { model, fields } = (typeof row === 'object' && row !== null ? row : {}) as { model?: unknown; fields?: unknown };
    if (!isModelName(model) || !isPickFields(fields)) throw new AppError('ratio_sync.invalid_pick', { index });
    return { model, fields };
  });
}
