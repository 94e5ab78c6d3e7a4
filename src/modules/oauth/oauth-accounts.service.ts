import { Injectable } from '@nestjs/common';
import { randomAlphanumeric } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { OptionsService } from '../options/options.service';
import { USER_STATUS_ENABLED, UserEntity } from '../users/entities/user.entity';
import { UserManagementService } from '../users/user-management.service';
import { IdentityColumn, UsersService } from '../users/users.service';
import { EmailVerificationService } from '../verification/email-verification.service';
import { ExternalIdentity } from './providers/external-identity';

/** Usernames of accounts created by a third-party sign-in: a short prefix and random letters, 12 characters at most. */
const USERNAME_PREFIX: Record<IdentityColumn, string> = {
  github_id: 'gh_',
  oidc_id: 'oidc_',
  linux_do_id: 'ldo_',
  wechat_id: 'wx_',
  telegram_id: 'tg_',
  saml_id: 'saml_',
};
const USERNAME_LENGTH = 12;
const DISPLAY_NAME_MAX = 20;

/** What a third-party sign-in did: signed an account in (maybe a new one), or bound the id to the caller. */
@Injectable()
export class OAuthAccountsService {
  constructor(
    private readonly users: UsersService,
    private readonly accounts: UserManagementService,
    private readonly options: OptionsService,
    private readonly emailVerification: EmailVerificationService,
  ) {}

  /** The account bound to the identity, or a new one when registration is open. */
  async signIn(identity: ExternalIdentity, affCode: string): Promise<UserEntity> {
    const bound = await this.users.findByIdentity(identity.column, identity.id);
    if (bound) {
      if (bound.deleted_at) throw new AppError('auth.user_deleted');
      if (bound.status !== USER_STATUS_ENABLED) throw new AppError('auth.user_banned');
      return bound;
    }
    if (!this.options.get('RegisterEnabled')) throw new AppError('user.register_disabled');
    const prefix = USERNAME_PREFIX[identity.column];
    const username = prefix + randomAlphanumeric(USERNAME_LENGTH - prefix.length).toLowerCase();
    const email = identity.email && !(await this.users.emailTaken(identity.email)) ? identity.email.toLowerCase() : '';
    return this.accounts.createAccount(
      { username, passwordHash: '', display_name: identity.displayName.slice(0, DISPLAY_NAME_MAX) || username, email, identity: { column: identity.column, value: identity.id } },
      affCode,
      async (manager) => {
        // Two callbacks for one new identity at once must not create two accounts.
        if (await this.users.findByIdentity(identity.column, identity.id, manager)) throw new AppError('oauth.already_bound');
        if (await this.users.usernameTaken(username, manager)) throw new AppError('user.username_taken');
      },
    );
  }

  /** Binds the identity to the signed-in user; refused when another account holds it. */
  async bind(userId: number, identity: ExternalIdentity): Promise<void> {
    const bound = await this.users.findByIdentity(identity.column, identity.id);
    if (bound && bound.id !== userId) throw new AppError('oauth.already_bound');
    await this.users.setIdentity(userId, identity.column, identity.id);
  }

  /** Binds a verified address to the signed-in user. */
  async bindEmail(userId: number, email: string, code: string): Promise<void> {
    const verified = await this.emailVerification.checkCode(email, code);
    const holder = await this.users.findByEmail(verified);
    if (holder && holder.id !== userId) throw new AppError('email.taken');
    await this.users.setIdentity(userId, 'email', verified);
  }
}
