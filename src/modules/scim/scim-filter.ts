import { badRequest } from './scim-error';

/** One `attribute eq value` comparison of a filter; the path lower-cased, without a schema URN. */
export interface ScimEquality {
  /** `username`, `externalid`, `emails.value`, `members.value` (from `members[value eq "…"]`)… */
  path: string;
  value: string | number | boolean | null;
}

const CORE_SCHEMA_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;

/** A path without the core schema URN that may prefix it (`urn:…:core:2.0:User:userName`). */
export function withoutCoreSchema(path: string): string {
  return path.replace(CORE_SCHEMA_PREFIX, '');
}

/** The attribute path as compared: lower-case (SCIM attribute names are case-insensitive), without its schema URN. */
export function normalisePath(path: string): string {
  return withoutCoreSchema(path).toLowerCase();
}

type Token = { kind: 'word'; text: string } | { kind: 'string'; text: string } | { kind: 'open' } | { kind: 'close' };

function tokenize(filter: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < filter.length) {
    const char = filter[index];
    if (/\s/.test(char)) {
      index++;
    } else if (char === '[') {
      tokens.push({ kind: 'open' });
      index++;
    } else if (char === ']') {
      tokens.push({ kind: 'close' });
      index++;
    } else if (char === '"') {
      // A JSON string literal (RFC 7644 §3.4.2.2): find its closing quote, then let JSON decode the escapes.
      let end = index + 1;
      while (end < filter.length && filter[end] !== '"') end += filter[end] === '\\' ? 2 : 1;
      if (end >= filter.length) throw badRequest('invalidFilter', 'The filter has an unterminated string');
      try {
        tokens.push({ kind: 'string', text: JSON.parse(filter.slice(index, end + 1)) as string });
      } catch {
        throw badRequest('invalidFilter', 'The filter has an invalid string');
      }
      index = end + 1;
    } else {
      const match = /^[^\s[\]"]+/.exec(filter.slice(index))!;
      tokens.push({ kind: 'word', text: match[0] });
      index += match[0].length;
    }
  }
  return tokens;
}

function literal(token: Token | undefined): ScimEquality['value'] {
  if (token?.kind === 'string') return token.text;
  if (token?.kind === 'word') {
    const word = token.text.toLowerCase();
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    if (/^-?\d+(\.\d+)?$/.test(word)) return Number(word);
  }
  throw badRequest('invalidFilter', 'The filter compares with a value that is not a string, number, boolean or null');
}

/**
 * Parses the filters identity providers send: equalities joined by `and`, including a
 * value filter on a multi-valued attribute (`members[value eq "42"]`, Entra's membership
 * check). Other operators and `or` are refused (400 invalidFilter), never guessed at.
 */
export function parseScimFilter(filter: string): ScimEquality[] {
  const tokens = tokenize(filter);
  const terms: ScimEquality[] = [];
  let index = 0;
  const expectEquality = (prefix: string): ScimEquality => {
    const attribute = tokens[index];
    const operator = tokens[index + 1];
    if (attribute?.kind !== 'word') throw badRequest('invalidFilter', 'The filter must start with an attribute name');
    if (operator?.kind === 'open' && prefix === '') {
      index += 2;
      const inner = expectEquality(`${attribute.text}.`);
      if (tokens[index]?.kind !== 'close') throw badRequest('invalidFilter', 'The filter has an unclosed [');
      index++;
      return inner;
    }
    if (operator?.kind !== 'word' || operator.text.toLowerCase() !== 'eq') throw badRequest('invalidFilter', `Only "eq" filters (joined by "and") are supported`);
    const value = literal(tokens[index + 2]);
    index += 3;
    return { path: normalisePath(prefix + attribute.text), value };
  };
  for (;;) {
    terms.push(expectEquality(''));
    if (index === tokens.length) return terms;
    const joiner = tokens[index];
    if (joiner.kind !== 'word' || joiner.text.toLowerCase() !== 'and') throw badRequest('invalidFilter', 'Only "eq" filters joined by "and" are supported');
    index++;
  }
}
