import { Injectable, Logger } from '@nestjs/common';
import { randomAlphanumeric } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { OptionsService } from '../options/options.service';
import { USERNAME_PATTERN } from '../users/dto/fields';
import { USER_STATUS_ENABLED, UserEntity } from '../users/entities/user.entity';
import { UserManagementService } from '../users/user-management.service';
import { UsersService } from '../users/users.service';

/** Who the IdP says signed in, from a verified assertion. */
export interface SamlIdentity {
  /** The assertion's NameID: the account's binding to the IdP. */
  nameId: string;
  /** From the email attribute, lower-cased, or ''. */
  email: string;
  /** From the username attribute, or the NameID. */
  username: string;
  /** The values of the group attribute. */
  groups: string[];
}

/** The longest username the console accepts (UsernameField). */
const USERNAME_MAX = 12;
const DISPLAY_NAME_MAX = 20;
const GENERATED_PREFIX = 'saml_';
const DEFAULT_GROUP = 'default';

/**
 * The account a SAML sign-in lands in: the one bound to the NameID; on a first sign-in, the
 * account with the same email when the setting allows binding, or else a new account (when
 * registration is open). With a group attribute and mapping, the IdP's groups set the user's group
 * at every sign-in.
 */
@Injectable()
export class SamlAccountsService {
  private readonly logger = new Logger(SamlAccountsService.name);

  constructor(
    private readonly users: UsersService,
    private readonly accounts: UserManagementService,
    private readonly options: OptionsService,
  ) {}

  async signIn(identity: SamlIdentity, affCode: string): Promise<UserEntity> {
    const user = (await this.users.findByIdentity('saml_id', identity.nameId)) ?? (await this.bindByEmail(identity)) ?? (await this.create(identity, affCode));
    if (user.deleted_at) throw new AppError('auth.user_deleted');
    if (user.status !== USER_STATUS_ENABLED) throw new AppError('auth.user_banned');
    await this.applyGroup(user, identity.groups);
    return user;
  }

  /** A first sign-in whose email an account already has: that account, bound to the NameID from now on (only when the setting allows). */
  private async bindByEmail(identity: SamlIdentity): Promise<UserEntity | null> {
    if (!identity.email || !this.options.get('saml.bind_by_email')) return null;
    const holder = await this.users.findByEmail(identity.email);
    if (!holder) return null;
    // Bound to another IdP subject already: a second person with the same address must not take it over.
    if (holder.saml_id) throw new AppError('saml.email_bound_elsewhere');
    await this.users.setIdentity(holder.id, 'saml_id', identity.nameId);
    this.logger.log(`SAML subject bound to user ${holder.id} by email`);
    return { ...holder, saml_id: identity.nameId };
  }

  private async create(identity: SamlIdentity, affCode: string): Promise<UserEntity> {
    if (!this.options.get('RegisterEnabled')) throw new AppError('user.register_disabled');
    const wanted = identity.username.split('@')[0];
    const username = isUsableUsername(wanted) && !(await this.users.usernameTaken(wanted)) ? wanted : generatedUsername();
    const email = identity.email && !(await this.users.emailTaken(identity.email)) ? identity.email : '';
    return this.accounts.createAccount(
      {
        username,
        passwordHash: '',
        display_name: identity.username.slice(0, DISPLAY_NAME_MAX),
        email,
        group: this.mappedGroup(identity.groups) ?? DEFAULT_GROUP,
        identity: { column: 'saml_id', value: identity.nameId },
      },
      affCode,
      async (manager) => {
        // Two ACS posts for one new subject at once must not create two accounts.
        if (await this.users.findByIdentity('saml_id', identity.nameId, manager)) throw new AppError('oauth.already_bound');
        if (await this.users.usernameTaken(username, manager)) throw new AppError('user.username_taken');
      },
    );
  }

  /** With a group attribute and a mapping, the account's group follows the IdP: the first mapped group it has, else the default group. */
  private async applyGroup(user: UserEntity, groups: string[]): Promise<void> {
    if (!this.options.get('saml.group_attribute') || Object.keys(this.options.get('saml.group_mapping')).length === 0) return;
    const group = this.mappedGroup(groups) ?? DEFAULT_GROUP;
    if (group === user.group) return;
    await this.users.updateColumns(user.id, { group });
    user.group = group;
  }

  /** The gateway group of the first mapping entry the user's IdP groups include; entries naming an unknown gateway group are skipped. */
  private mappedGroup(groups: string[]): string | undefined {
    if (!this.options.get('saml.group_attribute')) return undefined;
    const known = this.options.get('GroupRatio');
    for (const [idpGroup, gatewayGroup] of Object.entries(this.options.get('saml.group_mapping'))) {
      if (!groups.includes(idpGroup)) continue;
      if (gatewayGroup in known) return gatewayGroup;
      this.logger.warn(`saml.group_mapping maps "${idpGroup}" to the unknown group "${gatewayGroup}"; skipped`);
    }
    return undefined;
  }
}

function isUsableUsername(name: string): boolean {
  return name.length > 0 && name.length <= USERNAME_MAX && USERNAME_PATTERN.test(name);
}

function generatedUsername(): string {
  return GENERATED_PREFIX + randomAlphanumeric(USERNAME_MAX - GENERATED_PREFIX.length).toLowerCase();
}
