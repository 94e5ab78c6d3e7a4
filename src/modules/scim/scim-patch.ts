import { badRequest } from './scim-error';
import { parseScimFilter, withoutCoreSchema, type ScimEquality } from './scim-filter';

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** Where an operation points: `emails[type eq "work"].value` is attribute `emails`, filter `type eq "work"`, sub-attribute `value`. */
export interface ScimPath {
  /** Lower-case, without the core schema URN; an extension's attribute keeps its URN. */
  attribute: string;
  filter?: ScimEquality;
  subAttribute?: string;
}

export interface ScimPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: ScimPath;
  value: unknown;
}

const OPS = new Set(['add', 'replace', 'remove']);

/** Parses one attribute path (RFC 7644 §3.5.2): `active`, `name.givenName`, `members[value eq "7"]`, `urn:…:User:emails[type eq "work"].value`. */
export function parseScimPath(raw: string): ScimPath {
  // Attribute names are compared lower-case; a filter's value keeps its case.
  const path = withoutCoreSchema(raw.trim());
  if (path === '') throw badRequest('invalidPath', 'The operation has an empty path');
  // Extension attributes (the enterprise schema) are not stored; their URN contains dots ("2.0"), so keep it whole.
  if (/^urn:/i.test(path)) return { attribute: path.toLowerCase() };
  const match = /^([a-z][\w$-]*)(?:\[(.+)\])?(?:\.([a-z][\w$-]*))?$/i.exec(path);
  if (!match) throw badRequest('invalidPath', `The path "${raw}" is not a SCIM attribute path`);
  const [, name, filterText, sub] = match;
  const attribute = name.toLowerCase();
  const subAttribute = sub?.toLowerCase();
  let filter: ScimEquality | undefined;
  if (filterText !== undefined) {
    const terms = parseScimFilter(filterText);
    if (terms.length !== 1) throw badRequest('invalidPath', `The path "${raw}" filters on more than one attribute`);
    filter = terms[0];
  }
  return { attribute, filter, subAttribute };
}

/**
 * The operations of a PatchOp request, with Okta's and Entra's shapes made one: the op in
 * any case ("Replace"), and an operation without a path (`{"op":"replace","value":{"active":false}}`)
 * split into one operation per attribute of its value, whose keys may themselves be paths
 * (`"name.givenName"`, Entra).
 */
export function parsePatchRequest(body: unknown): ScimPatchOperation[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('invalidSyntax', 'The request body must be a PatchOp object');
  const operations = (body as { Operations?: unknown }).Operations;
  if (!Array.isArray(operations) || operations.length === 0) throw badRequest('invalidSyntax', 'A PatchOp request needs a non-empty "Operations" array');
  const parsed: ScimPatchOperation[] = [];
  for (const operation of operations) {
    if (typeof operation !== 'object' || operation === null) throw badRequest('invalidSyntax', 'Each operation must be an object');
    const { op, path, value } = operation as { op?: unknown; path?: unknown; value?: unknown };
    const kind = typeof op === 'string' ? op.toLowerCase() : '';
    if (!OPS.has(kind)) throw badRequest('invalidSyntax', `The operation "${String(op)}" is not add, replace or remove`);
    const verb = kind as ScimPatchOperation['op'];
    if (typeof path === 'string' && path.trim() !== '') {
      parsed.push({ op: verb, path: parseScimPath(path), value });
      continue;
    }
    if (path !== undefined && typeof path !== 'string') throw badRequest('invalidPath', 'The operation path must be a string');
    if (verb === 'remove') throw badRequest('noTarget', 'A remove operation needs a path');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('invalidValue', 'An operation without a path needs an object value');
    for (const [key, member] of Object.entries(value)) parsed.push({ op: verb, path: parseScimPath(key), value: member });
  }
  return parsed;
}

/** A SCIM boolean: true or false, or Entra's strings "True" and "False". */
export function scimBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw badRequest('invalidValue', `"${attribute}" must be true or false`);
}

/** A string attribute's value, or 400 naming the attribute. */
export function scimString(value: unknown, attribute: string): string {
  if (typeof value !== 'string') throw badRequest('invalidValue', `"${attribute}" must be a string`);
  return value;
}
