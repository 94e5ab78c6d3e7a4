import { IsString, Length } from 'class-validator';

/** POST /api/scim/tokens (root): a name saying which identity provider holds the token. */
export class CreateScimTokenDto {
  @IsString({ message: 'scim.token_name_required' })
  @Length(1, 64, { message: 'scim.token_name_required' })
  name: string;
}
