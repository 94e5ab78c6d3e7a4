import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PasswordField, UsernameField } from '../../users/dto/fields';

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
  @UsernameField()
  username: string;

  @PasswordField()
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
