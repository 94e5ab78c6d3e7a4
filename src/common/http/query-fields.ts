import { applyDecorators, ArgumentMetadata, ParseIntPipe } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { AppError } from '../errors/app-error';

/**
 * The largest row id: ids are INT on MySQL and integer on PostgreSQL. A larger one names no
 * row anywhere, and PostgreSQL refuses it as a parameter (out of range), so it is refused at the door.
 */
export const MAX_ROW_ID = 2_147_483_647;

/** A row id in a body: an integer from 1 to MAX_ROW_ID (`each`: every element of an array). */
export const RowIdField = (each = false) =>
  applyDecorators(IsInt({ each, message: 'common.invalid_id' }), Min(1, { each, message: 'common.invalid_id' }), Max(MAX_ROW_ID, { each, message: 'common.invalid_id' }));

/** A row id in the path (`/api/token/:id`): an integer within MAX_ROW_ID either way, else `common.invalid_id`. */
export class ParseRowIdPipe extends ParseIntPipe {
  constructor() {
    super({ exceptionFactory: () => new AppError('common.invalid_id') });
  }

  override async transform(value: string, metadata: ArgumentMetadata): Promise<number> {
    const id = await super.transform(value, metadata);
    if (Math.abs(id) > MAX_ROW_ID) throw new AppError('common.invalid_id');
    return id;
  }
}

/** The last second of year 9999: the largest unix time any filter accepts. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

/** An optional unix-time filter from the query string (seconds unless `max` says milliseconds). */
export const OptionalTimestampQuery = (max = MAX_UNIX_SECONDS) => applyDecorators(IsOptional(), Type(() => Number), IsInt(), Min(0), Max(max));

/** An optional non-negative id filter from the query string. */
export const OptionalIdQuery = () => applyDecorators(IsOptional(), Type(() => Number), IsInt(), Min(0), Max(MAX_ROW_ID));

/** An optional free-text filter with a length bound. */
export const OptionalTextQuery = (maxLength: number) => applyDecorators(IsOptional(), IsString(), MaxLength(maxLength));
