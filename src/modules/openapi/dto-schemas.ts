import { Type } from '@nestjs/common';
import type { ApiPropertyOptions } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** Where @nestjs/swagger keeps a class's documented property names (`:name` each). */
const SWAGGER_PROPERTIES_KEY = 'swagger/apiModelPropertiesArray';

type SchemaType = 'string' | 'integer' | 'number' | 'boolean';

/** class-validator's type checks, as JSON-schema types. */
const TYPE_OF_VALIDATOR: Readonly<Record<string, SchemaType>> = {
  isString: 'string',
  isInt: 'integer',
  isNumber: 'number',
  isNumberString: 'string',
  isBoolean: 'boolean',
  isEmail: 'string',
  isUrl: 'string',
};

/** The property's TypeScript type as emitted by decorator metadata, when it says something. */
function designType(target: Type<unknown>, property: string): SchemaType | 'array' | undefined {
  const emitted: unknown = Reflect.getMetadata('design:type', target.prototype as object, property);
  if (emitted === String) return 'string';
  if (emitted === Number) return 'number';
  if (emitted === Boolean) return 'boolean';
  if (emitted === Array) return 'array';
  return undefined;
}

/** One property's schema, read from its validators (which are what the server actually enforces). */
function propertyOptions(target: Type<unknown>, property: string, rules: ValidationMetadata[]): ApiPropertyOptions {
  const byName = (name: string) => rules.find((rule) => rule.name === name);
  const optional = rules.some((rule) => rule.name === 'isOptional');
  const emitted = designType(target, property);
  const typeRule = rules.find((rule) => rule.name !== undefined && TYPE_OF_VALIDATOR[rule.name] !== undefined);
  const isArray = emitted === 'array' || byName('isArray') !== undefined || rules.some((rule) => rule.each);
  const scalar: SchemaType = typeRule?.name ? TYPE_OF_VALIDATOR[typeRule.name] : emitted && emitted !== 'array' ? emitted : 'string';
  const allowed = byName('isIn')?.constraints[0] as unknown[] | undefined;
  const range: Record<string, number> = {};
  const bound = (name: string, key: string, index = 0) => {
    const value: unknown = byName(name)?.constraints[index];
    if (typeof value === 'number') range[key] = value;
  };
  bound('min', 'minimum');
  bound('max', 'maximum');
  bound('minLength', 'minLength');
  bound('maxLength', 'maxLength');
  bound('length', 'minLength', 0);
  bound('length', 'maxLength', 1);
  bound('arrayMinSize', 'minItems');
  bound('arrayMaxSize', 'maxItems');
  if (byName('arrayNotEmpty')) range.minItems = Math.max(range.minItems ?? 0, 1);
  const format = byName('isEmail') ? { format: 'email' } : byName('isUrl') ? { format: 'uri' } : {};
  // swagger's own options type is a wide union; the shape built here is one of its members.
  return {
    required: !optional,
    type: scalar,
    isArray,
    ...(allowed ? { enum: allowed } : {}),
    ...range,
    ...format,
  } as ApiPropertyOptions;
}

const described = new WeakSet<Type<unknown>>();

/**
 * Gives a DTO class the @nestjs/swagger property metadata its class-validator rules imply, so
 * the document shows every body field and query parameter without an @ApiProperty on each.
 * Parents are described first and a property already documented (by hand, or inherited) is
 * left alone; a class is described once.
 */
export function describeDtoFromValidators(target: Type<unknown>): void {
  if (described.has(target)) return;
  described.add(target);
  const parent = Object.getPrototypeOf(target) as Type<unknown> | null;
  if (parent && parent !== Function.prototype && parent.prototype) describeDtoFromValidators(parent);
  const rules = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  if (rules.length === 0) return;
  const documented = new Set<string>(((Reflect.getMetadata(SWAGGER_PROPERTIES_KEY, target.prototype as object) as string[] | undefined) ?? []).map((name) => name.slice(1)));
  const byProperty = getMetadataStorage().groupByPropertyName(rules);
  // Runs while the document is built, when @nestjs/swagger is loaded (see ApiDoc).
  const { ApiProperty } = require('@nestjs/swagger') as typeof import('@nestjs/swagger');
  for (const [property, propertyRules] of Object.entries(byProperty)) {
    if (documented.has(property)) continue;
    ApiProperty(propertyOptions(target, property, propertyRules))(target.prototype as object, property);
  }
}
