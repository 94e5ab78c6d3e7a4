import { IsNotEmpty, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';

export class LoginDto {
  @IsString({ message: 'user.username_password_required' })
  @IsNotEmpty({ message: 'user.username_password_required' })
  @MaxLength(128, { message: 'user.invalid_credentials' })
  username: string;

  @IsString({ message: 'user.username_password_required' })
  @IsNotEmpty({ message: 'user.username_password_required' })
  @MaxLength(128, { message: 'user.invalid_credentials' })
  password: string;
}

export class RegisterDto {
  @IsString({ message: 'user.username_password_required' })
  @IsNotEmpty({ message: 'user.username_password_required' })
  @MaxLength(12, { message: 'user.username_too_long' })
  @Matches(/^\S+$/, { message: 'user.username_invalid' })
  username: string;

  @IsString({ message: 'user.username_password_required' })
  @IsNotEmpty({ message: 'user.username_password_required' })
  @Length(8, 20, { message: 'user.password_length' })
  password: string;

  @IsOptional()
  @IsString()
  password2?: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  email?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  verification_code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  aff_code?: string;
}
