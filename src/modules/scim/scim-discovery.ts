/**
 * The discovery documents (RFC 7643 §5–7): what this service provider supports, its two
 * resource types, and the schema of each, listing only the attributes it stores.
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** The most resources one list answer carries (`count` above it is lowered to it). */
export const MAX_LIST_COUNT = 200;

type AttributeType = 'string' | 'boolean' | 'complex' | 'reference';

interface SchemaAttribute {
  name: string;
  type: AttributeType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: SchemaAttribute[];
  referenceTypes?: string[];
}

function attribute(name: string, type: AttributeType, description: string, options: Partial<SchemaAttribute> = {}): SchemaAttribute {
  return { name, type, multiValued: false, description, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...options };
}

const USER_ATTRIBUTES: SchemaAttribute[] = [
  attribute('userName', 'string', 'The gateway username (at most 64 characters, no whitespace); unique regardless of case.', { required: true, uniqueness: 'server' }),
  attribute('name', 'complex', 'Used for the display name when displayName is absent.', {
    subAttributes: [attribute('formatted', 'string', 'The full name.'), attribute('givenName', 'string', 'Given name.'), attribute('familyName', 'string', 'Family name.')],
  }),
  attribute('displayName', 'string', 'The name the console shows (at most 64 characters).'),
  attribute('emails', 'complex', 'The primary (or first) address is the account e-mail.', {
    multiValued: true,
    subAttributes: [attribute('value', 'string', 'The address.'), attribute('type', 'string', 'work, home or other.'), attribute('primary', 'boolean', 'The account e-mail.')],
  }),
  attribute('active', 'boolean', 'false disables the account, signs it out everywhere and stops its API keys.'),
  attribute('password', 'string', 'Sets the password for password sign-in; never returned.', { mutability: 'writeOnly', returned: 'never' }),
  attribute('groups', 'complex', 'The gateway group the user is in (one); change it through the Group resource.', {
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [attribute('value', 'string', 'The group id (its name).', { mutability: 'readOnly' }), attribute('display', 'string', 'The group name.', { mutability: 'readOnly' })],
  }),
];

const GROUP_ATTRIBUTES: SchemaAttribute[] = [
  attribute('displayName', 'string', 'The gateway group name (a key of the GroupRatio setting); cannot be changed here.', { required: true, uniqueness: 'server', mutability: 'immutable' }),
  attribute('members', 'complex', 'The users in the group; a user is in one group at a time, and one removed goes back to "default".', {
    multiValued: true,
    subAttributes: [
      attribute('value', 'string', 'The user id.', { mutability: 'immutable' }),
      attribute('display', 'string', 'The username.', { mutability: 'readOnly' }),
      attribute('$ref', 'reference', 'The user resource.', { mutability: 'immutable', referenceTypes: ['User'] }),
    ],
  }),
];

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    documentationUri: 'https://datatracker.ietf.org/doc/html/rfc7644',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_LIST_COUNT },
    changePassword: { supported: true },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      { type: 'oauthbearertoken', name: 'Bearer token', description: 'Authorization: Bearer <SCIM token made by root on the settings page>', primary: true },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

const RESOURCE_TYPES = [
  { id: 'User', name: 'User', endpoint: '/Users', description: 'Gateway accounts', schema: USER_SCHEMA },
  { id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Gateway user groups', schema: GROUP_SCHEMA },
];

export function resourceTypes(baseUrl: string) {
  return RESOURCE_TYPES.map((type) => ({ schemas: [RESOURCE_TYPE_SCHEMA], ...type, meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${type.id}` } }));
}

export function schemas(baseUrl: string) {
  return [
    { id: USER_SCHEMA, name: 'User', description: 'Gateway account', attributes: USER_ATTRIBUTES },
    { id: GROUP_SCHEMA, name: 'Group', description: 'Gateway user group', attributes: GROUP_ATTRIBUTES },
  ].map((schema) => ({ schemas: [SCHEMA_SCHEMA], ...schema, meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${schema.id}` } }));
}

/** A ListResponse (RFC 7644 §3.4.2). */
export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return { schemas: [LIST_RESPONSE_SCHEMA], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}
