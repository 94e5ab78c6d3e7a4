import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { signXml } from '@node-saml/node-saml/lib/xml';

/** A key pair and self-signed certificate made by the openssl CLI for this run. */
export interface SigningKey {
  privateKey: string;
  certificate: string;
}

export function generateSigningKey(commonName: string): SigningKey {
  const dir = mkdtempSync(path.join(tmpdir(), 'saml-key-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', `/CN=${commonName}`], { stdio: 'ignore' });
    return { privateKey: readFileSync(keyFile, 'utf8'), certificate: readFileSync(certFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const certificateBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const instant = (offsetSeconds: number) => new Date(Date.now() + offsetSeconds * 1000).toISOString();

/** What the IdP's assertion says; each field defaults to what a correct IdP would send. */
export interface AssertionOptions {
  /** The AuthnRequest ID being answered (from the login redirect). */
  inResponseTo: string;
  nameId: string;
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
  audience: string;
  recipient: string;
  /** Seconds from now when the assertion stops being valid (negative: already expired). */
  validForSeconds?: number;
  /** Signs with this key instead of the IdP's own (a forged signature). */
  signWith?: SigningKey;
  /** Changes the signed XML afterwards (tampering). */
  tamper?: (signedXml: string) => string;
  assertionId?: string;
}

/** Who the IdP's SSO page signs in (browser tests): the assertion's subject and what else it says. */
export type SsoSignIn = Pick<AssertionOptions, 'nameId' | 'attributes' | 'signWith'>;

/**
 * A SAML IdP for tests: metadata served on loopback (entity id, HTTP-Redirect SSO address, the
 * signing certificate), and Responses built and signed here with node-saml's own signer
 * (xml-crypto), an RSA-SHA256 enveloped signature on the assertion, as Okta and Keycloak send.
 * Its SSO page answers an AuthnRequest at once for `nextSignIn`, with the auto-posting form of
 * the HTTP-POST binding, as an IdP does once the user has signed in there.
 */
export class TestSamlIdp {
  readonly key = generateSigningKey('test-idp');
  nextSignIn: SsoSignIn = { nameId: 'idp|user' };
  private server?: http.Server;
  url = '';

  get entityId(): string {
    return `${this.url}/idp`;
  }
  get ssoUrl(): string {
    return `${this.url}/sso`;
  }
  get metadataUrl(): string {
    return `${this.url}/metadata`;
  }

  async start(): Promise<void> {
    const server = http.createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://idp');
      if (url.pathname === '/metadata') {
        response.writeHead(200, { 'Content-Type': 'application/samlmetadata+xml' }).end(this.metadataXml());
      } else if (url.pathname === '/sso') {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(this.ssoPage(`${url.pathname}${url.search}`));
      } else {
        // The browser asks the SSO page's host for a favicon.
        response.writeHead(url.pathname === '/favicon.ico' ? 204 : 404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The answer to an AuthnRequest: a form that posts the signed Response to the ACS the request named. */
  private ssoPage(pathAndQuery: string): string {
    const request = TestSamlIdp.readRequest(`${this.url}${pathAndQuery}`);
    const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(request.xml)?.[1] ?? '';
    const audience = /<saml:Issuer[^>]*>([^<]+)</.exec(request.xml)?.[1] ?? '';
    const samlResponse = this.respond({ ...this.nextSignIn, inResponseTo: request.id, audience, recipient: acs });
    return `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeXml(acs)}">
<input type="hidden" name="SAMLResponse" value="${samlResponse}"/><input type="hidden" name="RelayState" value="${escapeXml(request.relayState)}"/>
</form></body></html>`;
  }

  metadataXml(): string {
    return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${this.entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(this.key.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${this.ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  }

  /** The AuthnRequest the gateway's login redirect carries (deflated, base64, in the query). */
  static readRequest(location: string): { id: string; xml: string; relayState: string } {
    const url = new URL(location);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
    return { id: /\sID="([^"]+)"/.exec(xml)?.[1] ?? '', xml, relayState: url.searchParams.get('RelayState') ?? '' };
  }

  /** A base64 Response with one signed assertion, as the IdP's auto-posting form carries it. */
  respond(options: AssertionOptions): string {
    const validFor = options.validForSeconds ?? 300;
    const assertionId = options.assertionId ?? `_a${randomBytes(16).toString('hex')}`;
    const attributes = Object.entries(options.attributes ?? {})
      .map(([name, value]) => {
        const values = (Array.isArray(value) ? value : [value]).map((item) => `<saml:AttributeValue>${escapeXml(item)}</saml:AttributeValue>`).join('');
        return `<saml:Attribute Name="${escapeXml(name)}">${values}</saml:Attribute>`;
      })
      .join('');
    const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${instant(0)}">
<saml:Issuer>${this.entityId}</saml:Issuer>
<saml:Subject>
<saml:NameID Format="${options.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'}">${escapeXml(options.nameId)}</saml:NameID>
<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${options.inResponseTo}" NotOnOrAfter="${instant(validFor)}" Recipient="${escapeXml(options.recipient)}"/></saml:SubjectConfirmation>
</saml:Subject>
<saml:Conditions NotBefore="${instant(Math.min(validFor, 0) - 600)}" NotOnOrAfter="${instant(validFor)}"><saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>
<saml:AuthnStatement AuthnInstant="${instant(0)}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>
<saml:AttributeStatement>${attributes}</saml:AttributeStatement>
</saml:Assertion>`;
    const response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${instant(0)}" Destination="${escapeXml(options.recipient)}" InResponseTo="${options.inResponseTo}">
<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${this.entityId}</saml:Issuer>
<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>
${assertion}
</samlp:Response>`;
    const key = options.signWith ?? this.key;
    const signed = signXml(
      response,
      "//*[local-name(.)='Assertion']",
      { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
      { privateKey: key.privateKey, publicCert: key.certificate, signatureAlgorithm: 'sha256', digestAlgorithm: 'sha256' },
    );
    return Buffer.from(options.tamper ? options.tamper(signed) : signed).toString('base64');
  }
}
