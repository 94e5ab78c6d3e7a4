import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export class OAuthStateQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(32)
  aff?: string;
}

export class OAuthCallbackQueryDto {
  @IsString({ message: 'oauth.code_missing' })
  @IsNotEmpty({ message: 'oauth.code_missing' })
  @MaxLength(2048)
  code: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  state?: string;

  /** The issuer the provider names in its answer (RFC 9207), checked for OIDC. */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  iss?: string;
}

export class OidcAuthorizeQueryDto {
  @IsString({ message: 'oauth.state_invalid' })
  @IsNotEmpty({ message: 'oauth.state_invalid' })
  @MaxLength(64)
  state: string;
}

export class WeChatCodeQueryDto {
  @IsString({ message: 'oauth.code_missing' })
  @IsNotEmpty({ message: 'oauth.code_missing' })
  @MaxLength(64)
  code: string;
}

/** The Telegram login widget's fields (the console adds lang, which is not signed). */
export class TelegramLoginQueryDto {
  @IsString({ message: 'oauth.telegram_invalid' })
  @IsNotEmpty({ message: 'oauth.telegram_invalid' })
  @MaxLength(32)
  id: string;

  @IsOptional() @IsString() @MaxLength(256) first_name?: string;
  @IsOptional() @IsString() @MaxLength(256) last_name?: string;
  @IsOptional() @IsString() @MaxLength(256) username?: string;
  @IsOptional() @IsString() @MaxLength(1024) photo_url?: string;

  @IsString({ message: 'oauth.telegram_invalid' })
  @MaxLength(20)
  auth_date: string;

  @IsString({ message: 'oauth.telegram_invalid' })
  @MaxLength(128)
  hash: string;
}
