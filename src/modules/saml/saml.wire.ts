/** One signing certificate of the IdP, as its metadata gave it. */
export interface SamlCertificateView {
  subject: string;
  /** When the certificate expires, as X.509 writes it (e.g. "Jan  1 00:00:00 2030 GMT"). */
  not_after: string;
  sha256_fingerprint: string;
}

/**
 * GET /api/saml/settings (root): the addresses to register at the IdP, and what the IdP's
 * metadata says now (read again for this answer).
 */
export interface SamlSettingsView {
  sp_entity_id: string;
  acs_url: string;
  metadata_url: string;
  idp_entity_id: string;
  idp_sso_url: string;
  idp_certificates: SamlCertificateView[];
}
