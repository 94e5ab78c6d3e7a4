import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The browser's answer to a WebAuthn ceremony (`RegistrationResponseJSON` or
 * `AuthenticationResponseJSON`), passed through whole: @simplewebauthn/server checks its shape,
 * and a declared nested DTO would have the whitelist strip the fields it does not name.
 */
export class PasskeyCeremonyDto {
  @IsObject({ message: 'passkey.response_invalid' })
  response: Record<string, unknown>;
}

/** POST /api/user/passkeys: the registration answer and an optional name (else one is made from the browser). */
export class RegisterPasskeyDto extends PasskeyCeremonyDto {
  @IsOptional()
  @IsString()
  @MaxLength(64, { message: 'passkey.name_too_long' })
  name?: string;
}

/** PUT /api/user/passkeys/:id */
export class RenamePasskeyDto {
  @IsString({ message: 'passkey.name_required' })
  @IsNotEmpty({ message: 'passkey.name_required' })
  @MaxLength(64, { message: 'passkey.name_too_long' })
  name: string;
}
