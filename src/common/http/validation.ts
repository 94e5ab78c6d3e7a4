import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError } from '../errors/app-error';
import { isMessageCode, MessageCode } from '../i18n/catalogue';

/** class-validator constraint names → our generic messages, used when a DTO gives no code of its own. */
const GENERIC_BY_CONSTRAINT: Record<string, MessageCode> = {
  isNotEmpty: 'validation.required',
  isDefined: 'validation.required',
  maxLength: 'validation.too_long',
  minLength: 'validation.too_short',
  isLength: 'validation.invalid',
  isInt: 'validation.not_integer',
  isNumber: 'validation.not_number',
  isString: 'validation.not_string',
  isBoolean: 'validation.not_boolean',
  min: 'validation.too_small',
  max: 'validation.too_large',
  isIn: 'validation.not_allowed_value',
  isEmail: 'validation.not_email',
  whitelistValidation: 'validation.unknown_field',
};

function firstFailure(errors: ValidationError[], parent = ''): { field: string; constraint: string; message: string } | undefined {
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    // Report "required", then a wrong type, before anything else about the same field.
    const order = ['isDefined', 'isNotEmpty', 'isString', 'isInt', 'isNumber', 'isBoolean', ...Object.keys(constraints)];
    const constraint = order.find((name) => name in constraints);
    if (constraint) return { field, constraint, message: constraints[constraint] };
    const nested = firstFailure(error.children ?? [], field);
    if (nested) return nested;
  }
  return undefined;
}

/** DTO messages are catalogue codes; otherwise the constraint picks a generic message naming the field. */
export function validationErrorToAppError(errors: ValidationError[]): AppError {
  const failure = firstFailure(errors);
  if (!failure) return new AppError('common.invalid_params');
  if (isMessageCode(failure.message)) return new AppError(failure.message, { field: failure.field });
  return new AppError(GENERIC_BY_CONSTRAINT[failure.constraint] ?? 'validation.invalid', { field: failure.field });
}

const PLAIN_TYPES: unknown[] = [Object, Array, String, Number, Boolean];

/**
 * A DTO's `null` fields are dropped before validation, so `null` means "not given", as in
 * new-api: `@IsOptional()` lets a null through, and services that tell a given field by
 * `!== undefined` then wrote NULL into NOT NULL columns or called `.trim()` on it (500s).
 * A required field sent as null is reported missing.
 */
class DtoValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const validated = metadata.type === 'body' && metadata.metatype !== undefined && !PLAIN_TYPES.includes(metadata.metatype);
    return super.transform(validated ? withoutNullFields(value) : value, metadata);
  }
}

function withoutNullFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}

export function createValidationPipe(): ValidationPipe {
  return new DtoValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    exceptionFactory: validationErrorToAppError,
  });
}
