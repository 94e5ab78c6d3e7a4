import { IdpMetadataError, parseIdpMetadata } from './idp-metadata';
import { generateSigningKey } from '../../../test/support/saml-idp';

const key = generateSigningKey('spec-idp');
const body = key.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
const keyDescriptor = (use: string) => `<md:KeyDescriptor${use ? ` use="${use}"` : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>\n${body}\n</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
const entity = (inner: string, entityId = 'https://idp.example/entity') =>
  `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${inner}</md:IDPSSODescriptor></md:EntityDescriptor>`;
const redirectSso = '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/sso"/>';

describe('parseIdpMetadata', () => {
  it('reads the entity id, the redirect SSO address and the signing certificate (a KeyDescriptor without use signs too)', async () => {
    const descriptor = await parseIdpMetadata(entity(keyDescriptor('') + redirectSso));
    expect(descriptor).toEqual({ entityId: 'https://idp.example/entity', ssoUrl: 'https://idp.example/sso', certificates: [expect.stringContaining('-----BEGIN CERTIFICATE-----')] });
  });

  it('takes the IdP out of an EntitiesDescriptor and leaves encryption-only keys out', async () => {
    const xml = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${entity(keyDescriptor('signing') + keyDescriptor('encryption') + redirectSso)}</md:EntitiesDescriptor>`;
    expect((await parseIdpMetadata(xml)).certificates).toHaveLength(1);
  });

  it.each([
    ['not an XML document', 'not xml at all <'],
    ['no SingleSignOnService with the HTTP-Redirect binding', entity(keyDescriptor('signing'))],
    ['no signing certificate', entity(keyDescriptor('encryption') + redirectSso)],
    ['the EntityDescriptor has no entityID', entity(keyDescriptor('signing') + redirectSso, '')],
    ['a signing certificate cannot be read', entity(keyDescriptor('signing').replace(body, 'bm90IGEgY2VydA==') + redirectSso)],
  ])('refuses metadata with %s', async (reason, xml) => {
    await expect(parseIdpMetadata(xml)).rejects.toEqual(new IdpMetadataError(reason));
  });
});
