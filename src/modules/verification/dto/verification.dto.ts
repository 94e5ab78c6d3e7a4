import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class EmailQueryDto {
  @IsString({ message: 'email.required' })
  @IsNotEmpty({ message: 'email.required' })
  @MaxLength(128, { message: 'validation.not_email' })
  email: string;
}

export class EmailBindQueryDto extends EmailQueryDto {
  @IsString({ message: 'email.code_required' })
  @IsNotEmpty({ message: 'email.code_required' })
  @MaxLength(32, { message: 'email.code_invalid' })
  code: string;
}

export class ConfirmResetDto extends EmailQueryDto {
  @IsString({ message: 'reset.link_invalid' })
  @IsNotEmpty({ message: 'reset.link_invalid' })
  @MaxLength(64, { message: 'reset.link_invalid' })
  token: string;
}
