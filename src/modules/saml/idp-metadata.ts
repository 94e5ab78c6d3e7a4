import { X509Certificate } from 'node:crypto';

/** What the gateway needs of the IdP, read from its metadata. */
export interface IdpDescriptor {
  entityId: string;
  /** The SingleSignOnService of the HTTP-Redirect binding: where the login sends the browser. */
  ssoUrl: string;
  /** Signing certificates (PEM); several during a key rollover, any of them may sign. */
  certificates: string[];
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const IDP_ENTITY = "//*[local-name()='EntityDescriptor'][*[local-name()='IDPSSODescriptor']]";

/** The metadata refused, with the reason in words an admin can act on. */
export class IdpMetadataError extends Error {}

function toPem(base64: string): string {
  const body = base64.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----`;
}

/**
 * Reads the IdP's entity id, redirect-binding SSO address and signing certificates from a SAML
 * metadata document (an EntityDescriptor, or the first IdP inside an EntitiesDescriptor).
 * Encryption-only keys are left out: they never sign.
 */
export async function parseIdpMetadata(xml: string): Promise<IdpDescriptor> {
  // Loaded on first use, like the rest of node-saml (see SamlService).
  const { parseDomFromString, xpath } = await import('@node-saml/node-saml/lib/xml');
  let document: Awaited<ReturnType<typeof parseDomFromString>>;
  try {
    document = await parseDomFromString(xml);
  } catch {
    throw new IdpMetadataError('not an XML document');
  }
  const entity = xpath.selectElements(document, IDP_ENTITY)[0];
  if (!entity) throw new IdpMetadataError('no EntityDescriptor with an IDPSSODescriptor');
  const entityId = entity.getAttribute('entityID') ?? '';
  if (!entityId) throw new IdpMetadataError('the EntityDescriptor has no entityID');
  const sso = xpath.selectElements(entity, `./*[local-name()='IDPSSODescriptor']/*[local-name()='SingleSignOnService'][@Binding='${REDIRECT_BINDING}']`)[0];
  const ssoUrl = sso?.getAttribute('Location') ?? '';
  if (!/^https?:\/\//i.test(ssoUrl)) throw new IdpMetadataError('no SingleSignOnService with the HTTP-Redirect binding');
  const certificates = xpath
    .selectElements(entity, "./*[local-name()='IDPSSODescriptor']/*[local-name()='KeyDescriptor'][not(@use) or @use='signing']//*[local-name()='X509Certificate']")
    .map((node) => toPem(node.textContent ?? ''));
  if (certificates.length === 0) throw new IdpMetadataError('no signing certificate');
  for (const pem of certificates) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new IdpMetadataError('a signing certificate cannot be read');
    }
  }
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] };
}
