import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthenticatedRequest, AuthenticatedUser, BEFORE_TWO_FACTOR_ENROLMENT, BROWSER_PAGE, CRITICAL_RATE_LIMIT, IS_PUBLIC, MIN_ROLE } from '../../common/auth/auth.decorators';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../common/errors/app-error';
import { readCookie } from '../../common/http/cookies';
import { RateLimiterService } from '../../common/rate-limit/rate-limiter.service';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { USER_STATUS_ENABLED } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';
import { TwoFactorService } from '../two-factor/two-factor.service';
import { SESSION_COOKIE, SessionsService } from '../sessions/sessions.service';

/**
 * Every /api route passes here. A caller is recognised by the session cookie or by a
 * system access token in Authorization; signed-in calls must name themselves in
 * New-Api-User. Banned and deleted users are turned away even with a live session.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
    private readonly rateLimiter: RateLimiterService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: GatewayMetrics,
    private readonly twoFactor: TwoFactorService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const targets = [context.getHandler(), context.getClass()];

    if (this.reflector.getAllAndOverride<boolean>(CRITICAL_RATE_LIMIT, targets)) {
      const { max, windowSeconds } = this.config.criticalRateLimit;
      if (!(await this.rateLimiter.hit(`critical:${request.ip}`, max, windowSeconds))) {
        if (this.metrics.enabled) this.metrics.rateLimitRefused('critical');
        throw new TooManyRequestsError();
      }
    }

    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ?? false;
    if (isPublic) {
      request.user = await this.identify(request).catch(() => undefined);
      return true;
    }

    const user = await this.identify(request);
    if (!user) throw new UnauthorizedError();
    const claimed = request.headers['new-api-user'];
    const navigatedPage = request.method === 'GET' && user.sessionId !== undefined && this.reflector.getAllAndOverride<boolean>(BROWSER_PAGE, targets) === true;
    if (!navigatedPage || claimed !== undefined) {
      if (claimed === undefined || claimed === '') throw new UnauthorizedError('auth.missing_user_header');
      if (String(claimed) !== String(user.id)) throw new UnauthorizedError('auth.user_header_mismatch');
    }

    const minRole = this.reflector.getAllAndOverride<number>(MIN_ROLE, targets) ?? 0;
    if (user.role < minRole) throw new ForbiddenError();
    if (!this.reflector.getAllAndOverride<boolean>(BEFORE_TWO_FACTOR_ENROLMENT, targets) && (await this.twoFactor.enrolmentRequired(user))) {
      throw new ForbiddenError('two_factor.enrolment_required');
    }
    request.user = { ...user, ip: request.ip };
    return true;
  }

  private async identify(request: AuthenticatedRequest): Promise<AuthenticatedUser | undefined> {
    const authorization = request.headers.authorization?.trim();
    if (authorization) {
      const token = authorization.replace(/^Bearer\s+/i, '');
      const user = await this.users.findByAccessToken(token);
      if (!user) throw new UnauthorizedError('auth.invalid_access_token');
      if (user.status !== USER_STATUS_ENABLED) throw new UnauthorizedError('auth.user_banned');
      return { id: user.id, username: user.username, role: user.role, group: user.group };
    }
    const session = await this.sessions.resolve(readCookie(request.headers.cookie, SESSION_COOKIE));
    if (!session) return undefined;
    const user = await this.users.findById(session.userId);
    if (!user) throw new UnauthorizedError('auth.user_deleted');
    if (user.status !== USER_STATUS_ENABLED) throw new UnauthorizedError('auth.user_banned');
    return { id: user.id, username: user.username, role: user.role, group: user.group, sessionId: session.id };
  }
}
