import { IsBoolean, IsOptional, IsString } from 'class-validator';

/** Field rules depend on whether the administrator exists yet, so they are checked in the service. */
export class SetupDto {
  @IsOptional()
  @IsString()
  username?: string;

  @IsOptional()
  @IsString()
  password?: string;

  @IsOptional()
  @IsString()
  confirmPassword?: string;

  @IsOptional()
  @IsBoolean()
  SelfUseModeEnabled?: boolean;

  @IsOptional()
  @IsBoolean()
  DemoSiteEnabled?: boolean;
}
