import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';

/**
 * No whitespace, control, zero-width, bidi or other invisible characters: Unicode C* and Z*,
 * plus the default-ignorable ones outside those (variation selectors, the combining grapheme
 * joiner, Hangul fillers), which render as nothing and so make "root\uFE0F" look like "root".
 */
export const USERNAME_PATTERN = /^[^\s\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]+$/u;

/** The account field rules, shared by registration, admin creation and edits. */
export const UsernameField = () =>
  applyDecorators(
    IsString({ message: 'user.username_password_required' }),
    IsNotEmpty({ message: 'user.username_password_required' }),
    MaxLength(12, { message: 'user.username_too_long' }),
    Matches(USERNAME_PATTERN, { message: 'user.username_invalid' }),
  );

export const PasswordField = () =>
  applyDecorators(
    IsString({ message: 'user.username_password_required' }),
    IsNotEmpty({ message: 'user.username_password_required' }),
    Length(8, 20, { message: 'user.password_length' }),
  );

/** On edits a blank password leaves it unchanged. */
export const OptionalNewPasswordField = () => applyDecorators(IsOptional(), IsString(), Matches(/^$|^.{8,20}$/s, { message: 'user.password_length' }));

export const OptionalDisplayNameField = () => applyDecorators(IsOptional(), IsString(), MaxLength(20, { message: 'user.display_name_too_long' }));
