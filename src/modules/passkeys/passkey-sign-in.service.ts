import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AuthService, SignInClient, SignInStep } from '../auth/auth.service';
import { PendingSignIn } from '../two-factor/sign-in-challenge';
import { USER_STATUS_ENABLED, UserEntity } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';
import { PasskeysService } from './passkeys.service';

/** Sign-in with a passkey, alone or as the second step, ending in the same session start as a password sign-in. */
@Injectable()
export class PasskeySignInService {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly users: UsersService,
    private readonly auth: AuthService,
  ) {}

  /** A passkey alone: it proved possession and, through user verification, the person; no TOTP step follows. */
  async signIn(response: Record<string, unknown>, client: SignInClient): Promise<SignInStep> {
    const userId = await this.passkeys.verifySignIn(response);
    return this.auth.finishSignIn(await this.enabledUser(userId), { userId, requirePasswordChange: false }, client);
  }

  /** The second step of a sign-in whose first step (password or third party) is pending. */
  async completeSecondFactor(pending: PendingSignIn, response: Record<string, unknown>, client: SignInClient): Promise<SignInStep> {
    await this.passkeys.verifySecondFactor(pending.userId, response);
    return this.auth.finishSignIn(await this.enabledUser(pending.userId), pending, client);
  }

  private async enabledUser(userId: number): Promise<UserEntity> {
    const user = await this.users.findById(userId);
    if (!user || user.status !== USER_STATUS_ENABLED) throw new AppError('user.invalid_credentials');
    return user;
  }
}
