import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Far above a real signed Response (a few kB, tens with many group values). */
const SAML_RESPONSE_MAX_LENGTH = 512 * 1024;

/** GET /api/saml/login: the referral code of a sign-up, carried through the IdP. */
export class SamlLoginQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(32)
  aff?: string;
}

/** POST /api/saml/acs: the IdP's HTTP-POST binding (a form the browser submits). */
export class SamlAcsDto {
  @IsString({ message: 'saml.response_invalid' })
  @MaxLength(SAML_RESPONSE_MAX_LENGTH, { message: 'saml.response_invalid' })
  SAMLResponse: string;

  @IsOptional()
  @IsString()
  @MaxLength(80)
  RelayState?: string;
}
