import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** The last second of year 9999: the largest unix time any filter accepts. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

/** An optional unix-time filter from the query string (seconds unless `max` says milliseconds). */
export const OptionalTimestampQuery = (max = MAX_UNIX_SECONDS) => applyDecorators(IsOptional(), Type(() => Number), IsInt(), Min(0), Max(max));

/** An optional non-negative id filter from the query string. */
export const OptionalIdQuery = () => applyDecorators(IsOptional(), Type(() => Number), IsInt(), Min(0));

/** An optional free-text filter with a length bound. */
export const OptionalTextQuery = (maxLength: number) => applyDecorators(IsOptional(), IsString(), MaxLength(maxLength));
