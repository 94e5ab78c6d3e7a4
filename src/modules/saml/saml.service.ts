import { Injectable, Logger } from '@nestjs/common';
import type { Profile, SAML } from '@node-saml/node-saml';
import { X509Certificate } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import type { MessageCode } from '../../common/i18n/catalogue';
import { AuthService, SignedInUserView, SignInClient, SignInStep } from '../auth/auth.service';
import { OptionsService } from '../options/options.service';
import { IdpDescriptor } from './idp-metadata';
import { SamlAccountsService, SamlIdentity } from './saml-accounts.service';
import { SamlIdpService } from './saml-idp.service';
import { REQUEST_TTL_SECONDS, SamlMessageIdsRepository } from './saml-message-ids.repository';
import type { SamlSettingsView } from './saml.wire';
import { attributeValues, signedAssertionFacts } from './signed-assertion';

/** Clocks of the IdP and the gateway may differ this much. */
const CLOCK_SKEW_MS = 60_000;
/** How long a used assertion is remembered when it names no NotOnOrAfter of its own. */
const DEFAULT_ASSERTION_LIFETIME_SECONDS = 60 * 60;
const TRANSIENT_NAME_ID = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
/** A referral code travels through the IdP in RelayState; anything else there is ignored. */
const REFERRAL_CODE = /^[A-Za-z0-9]{1,32}$/;

/** The gateway's addresses as a SAML service provider, derived from ServerAddress. */
export interface ServiceProviderAddresses {
  entityId: string;
  acsUrl: string;
  metadataUrl: string;
}

/** node-saml's refusals, by the start of its message, as the codes the console explains. */
const REFUSALS: [prefix: string, code: MessageCode][] = [
  ['Invalid signature', 'saml.signature_invalid'],
  ['Invalid document signature', 'saml.signature_invalid'],
  ['Cannot obtain assertion from signed data', 'saml.signature_invalid'],
  ['SAML assertion audience mismatch', 'saml.audience_mismatch'],
  ['SAML assertion has no AudienceRestriction', 'saml.audience_mismatch'],
  ['SAML assertion AudienceRestriction has no Audience', 'saml.audience_mismatch'],
  ['SAML assertion expired', 'saml.assertion_expired'],
  ['SAML assertion not yet valid', 'saml.assertion_expired'],
  ['No valid subject confirmation found', 'saml.assertion_expired'],
  ['InResponseTo', 'saml.request_unknown'],
  ['SubjectInResponseTo', 'saml.request_unknown'],
];

/**
 * node-saml (with the XML signature, encryption and XPath code under it) loads on the first SAML
 * call: a gateway without SAML never holds it (issue 32).
 */
const nodeSaml = () => import('@node-saml/node-saml');

/** `idpRefused`: the IdP's own status said no (node-saml's SamlStatusError). */
function refusalCode(error: unknown, idpRefused: boolean): MessageCode {
  if (idpRefused) return 'saml.idp_refused';
  const message = error instanceof Error ? error.message : '';
  return REFUSALS.find(([prefix]) => message.startsWith(prefix))?.[1] ?? 'saml.response_invalid';
}

/**
 * SAML 2.0 Web Browser SSO as a service provider, with node-saml: the AuthnRequest over
 * HTTP-Redirect, and the IdP's Response over HTTP-POST at the ACS. A Response is accepted only
 * with an assertion signed by a certificate in the IdP's metadata, answering an AuthnRequest we
 * sent (InResponseTo), for our entity id (audience) and ACS (recipient), inside its time window,
 * and never twice (assertion ids are remembered in the database until they expire).
 */
@Injectable()
export class SamlService {
  private readonly logger = new Logger(SamlService.name);

  constructor(
    private readonly options: OptionsService,
    private readonly idp: SamlIdpService,
    private readonly messageIds: SamlMessageIdsRepository,
    private readonly accounts: SamlAccountsService,
    private readonly auth: AuthService,
  ) {}

  serviceProvider(): ServiceProviderAddresses {
    const base = this.options.get('ServerAddress');
    if (!base) throw new AppError('saml.server_address_required');
    return { entityId: `${base}/api/saml/metadata`, acsUrl: `${base}/api/saml/acs`, metadataUrl: `${base}/api/saml/metadata` };
  }

  /** The SP metadata the IdP imports: entity id, ACS (HTTP-POST), and that assertions must be signed. */
  async metadataXml(): Promise<string> {
    const sp = this.serviceProvider();
    const { generateServiceProviderMetadata } = await nodeSaml();
    return generateServiceProviderMetadata({ issuer: sp.entityId, callbackUrl: sp.acsUrl, wantAssertionsSigned: true, identifierFormat: null });
  }

  /** Where the browser goes to sign in at the IdP: its SSO address with our AuthnRequest (remembered for the ACS). */
  async loginUrl(affCode: string | undefined): Promise<string> {
    this.assertEnabled();
    const client = await this.client(this.serviceProvider(), await this.idp.descriptor());
    return client.getAuthorizeUrlAsync(affCode && REFERRAL_CODE.test(affCode) ? affCode : '', undefined, {});
  }

  /** The ACS: checks the IdP's Response, then signs in (or up, or binds) the account it names. */
  async signIn(samlResponse: string, relayState: string | undefined, client: SignInClient): Promise<SignInStep> {
    this.assertEnabled();
    const identity = await this.verify(samlResponse);
    const user = await this.accounts.signIn(identity, relayState && REFERRAL_CODE.test(relayState) ? relayState : '');
    return this.auth.afterFirstFactor(user, { userId: user.id, requirePasswordChange: false }, client);
  }

  /** The user of a session the ACS started, as a sign-in answers it (the console's landing page asks). */
  signedInView(userId: number): Promise<SignedInUserView> {
    return this.auth.signedInView(userId);
  }

  /** The settings page's check: our addresses to give the IdP, and what its metadata says now. */
  async settingsView(): Promise<SamlSettingsView> {
    const sp = this.serviceProvider();
    const idp = await this.idp.descriptor(true);
    return {
      sp_entity_id: sp.entityId,
      acs_url: sp.acsUrl,
      metadata_url: sp.metadataUrl,
      idp_entity_id: idp.entityId,
      idp_sso_url: idp.ssoUrl,
      idp_certificates: idp.certificates.map((pem) => {
        const certificate = new X509Certificate(pem);
        return { subject: certificate.subject, not_after: certificate.validTo, sha256_fingerprint: certificate.fingerprint256 };
      }),
    };
  }

  private assertEnabled(): void {
    if (!this.options.get('saml.enabled')) throw new AppError('saml.disabled');
  }

  private async client(sp: ServiceProviderAddresses, idp: IdpDescriptor): Promise<SAML> {
    const { SAML, ValidateInResponseTo } = await nodeSaml();
    return new SAML({
      entryPoint: idp.ssoUrl,
      issuer: sp.entityId,
      audience: sp.entityId,
      callbackUrl: sp.acsUrl,
      idpCert: idp.certificates,
      // Okta, Entra ID and Keycloak sign the assertion by default and not always the envelope around it.
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_SECONDS * 1000,
      cacheProvider: this.messageIds.requestCache,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      // The IdP's own choice of NameID format and of how the user authenticates (MFA, passkeys) stands.
      identifierFormat: null,
      disableRequestedAuthnContext: true,
    });
  }

  private async verify(samlResponse: string): Promise<SamlIdentity> {
    const sp = this.serviceProvider();
    const idp = await this.idp.descriptor();
    // Before the (costlier) checks, so a replay is named as one even after its request id was spent.
    const presentedId = await assertionIdOf(samlResponse);
    if (presentedId && (await this.messageIds.assertionUsed(presentedId))) throw new AppError('saml.assertion_replayed');
    const client = await this.client(sp, idp);
    const { SamlStatusError } = await nodeSaml();
    let profile: Profile | null;
    try {
      ({ profile } = await client.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      const idpRefused = error instanceof SamlStatusError;
      const code = refusalCode(error, idpRefused);
      this.logger.warn(`SAML response refused (${code}): ${error instanceof Error ? error.message : String(error)}`);
      throw new AppError(code, { status: idpRefused ? error.message : '' });
    }
    if (!profile) throw new AppError('saml.response_invalid');
    const facts = signedAssertionFacts(profile);
    if (!facts.id) throw new AppError('saml.response_invalid');
    if (facts.issuer !== idp.entityId) throw new AppError('saml.issuer_mismatch');
    if (facts.recipients.length === 0 || facts.recipients.some((recipient) => recipient !== sp.acsUrl)) throw new AppError('saml.recipient_mismatch');
    if (!profile.nameID) throw new AppError('saml.name_id_missing');
    if (profile.nameIDFormat === TRANSIENT_NAME_ID) throw new AppError('saml.name_id_transient');
    const expiresAt = (facts.notOnOrAfter ?? Math.floor(Date.now() / 1000) + DEFAULT_ASSERTION_LIFETIME_SECONDS) + CLOCK_SKEW_MS / 1000;
    if (!(await this.messageIds.claimAssertion(facts.id, expiresAt))) throw new AppError('saml.assertion_replayed');
    return this.identityOf(profile);
  }

  private identityOf(profile: Profile): SamlIdentity {
    const first = (name: string) => (name ? attributeValues(profile, name)[0] : undefined);
    const emailAttribute = this.options.get('saml.email_attribute');
    const email = (emailAttribute ? first(emailAttribute) : undefined) ?? (typeof profile.email === 'string' ? profile.email : '');
    const groupAttribute = this.options.get('saml.group_attribute');
    return {
      nameId: profile.nameID,
      email: /^[^\s@]+@[^\s@]+$/.test(email) ? email.toLowerCase() : '',
      username: first(this.options.get('saml.username_attribute')) ?? profile.nameID,
      groups: groupAttribute ? attributeValues(profile, groupAttribute) : [],
    };
  }
}

/** The ID of the Response's assertion as presented (not yet verified), or '' when there is none to read. */
async function assertionIdOf(samlResponse: string): Promise<string> {
  try {
    const { parseDomFromString, xpath } = await import('@node-saml/node-saml/lib/xml');
    const document = await parseDomFromString(Buffer.from(samlResponse, 'base64').toString('utf8'));
    return xpath.selectElements(document, "/*[local-name()='Response']/*[local-name()='Assertion']")[0]?.getAttribute('ID') ?? '';
  } catch {
    return '';
  }
}
