import { ScimError } from './scim-error';
import { parseScimFilter } from './scim-filter';
import { parsePatchRequest, parseScimPath, scimBoolean } from './scim-patch';

function scimTypeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimError) return error.scimType;
    throw error;
  }
  return 'no error';
}

describe('SCIM filters', () => {
  it('reads equalities joined by "and", attribute names in any case, values as JSON literals', () => {
    expect(parseScimFilter('userName eq "Alice \\"A\\" Smith"')).toEqual([{ path: 'username', value: 'Alice "A" Smith' }]);
    expect(parseScimFilter('urn:ietf:params:scim:schemas:core:2.0:User:externalId EQ "AbC"')).toEqual([{ path: 'externalid', value: 'AbC' }]);
    expect(parseScimFilter('id eq "g" and members[value eq "7"]')).toEqual([
      { path: 'id', value: 'g' },
      { path: 'members.value', value: '7' },
    ]);
    expect(parseScimFilter('active eq true and emails.value eq null')).toEqual([
      { path: 'active', value: true },
      { path: 'emails.value', value: null },
    ]);
  });

  it('refuses what it does not support instead of guessing', () => {
    for (const filter of ['userName sw "a"', 'a eq "x" or b eq "y"', 'userName eq', 'userName eq "open', 'eq "x"', 'userName eq bare', 'members[value eq "7"']) {
      expect({ filter, scimType: scimTypeOf(() => parseScimFilter(filter)) }).toEqual({ filter, scimType: 'invalidFilter' });
    }
  });
});

describe('SCIM PATCH requests', () => {
  it("makes Okta's and Entra's shapes one: any-case ops, value-only operations split per attribute", () => {
    expect(parsePatchRequest({ Operations: [{ op: 'replace', value: { active: false, 'name.givenName': 'A' } }] })).toEqual([
      { op: 'replace', path: { attribute: 'active', filter: undefined, subAttribute: undefined }, value: false },
      { op: 'replace', path: { attribute: 'name', filter: undefined, subAttribute: 'givenname' }, value: 'A' },
    ]);
    expect(parsePatchRequest({ Operations: [{ op: 'Replace', path: 'emails[type eq "Work"].value', value: 'x@y' }] })).toEqual([
      { op: 'replace', path: { attribute: 'emails', filter: { path: 'type', value: 'Work' }, subAttribute: 'value' }, value: 'x@y' },
    ]);
    expect(parseScimPath('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department')).toEqual({ attribute: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user:department' });
  });

  it('reads booleans as Entra sends them', () => {
    expect([true, false, 'True', 'False', ' false '].map((value) => scimBoolean(value, 'active'))).toEqual([true, false, true, false, false]);
    expect(scimTypeOf(() => scimBoolean('no', 'active'))).toBe('invalidValue');
    expect(scimTypeOf(() => scimBoolean(0, 'active'))).toBe('invalidValue');
  });

  it('refuses malformed requests with the scimType RFC 7644 names', () => {
    expect(scimTypeOf(() => parsePatchRequest({}))).toBe('invalidSyntax');
    expect(scimTypeOf(() => parsePatchRequest({ Operations: [{ op: 'move', path: 'a' }] }))).toBe('invalidSyntax');
    expect(scimTypeOf(() => parsePatchRequest({ Operations: [{ op: 'remove' }] }))).toBe('noTarget');
    expect(scimTypeOf(() => parsePatchRequest({ Operations: [{ op: 'add', value: 'x' }] }))).toBe('invalidValue');
    expect(scimTypeOf(() => parsePatchRequest({ Operations: [{ op: 'add', path: '9bad', value: 'x' }] }))).toBe('invalidPath');
    expect(scimTypeOf(() => parsePatchRequest({ Operations: [{ op: 'add', path: 'members[value eq "1" and type eq "User"]', value: 'x' }] }))).toBe('invalidPath');
  });
});
