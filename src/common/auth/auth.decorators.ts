import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

export const IS_PUBLIC = 'auth:public';
export const MIN_ROLE = 'auth:min-role';
export const CRITICAL_RATE_LIMIT = 'auth:critical-rate-limit';
export const BROWSER_PAGE = 'auth:browser-page';
export const BEFORE_TWO_FACTOR_ENROLMENT = 'auth:before-two-factor-enrolment';

/** Who is calling: the signed-in user, as the auth guard found them. */
export interface AuthenticatedUser {
  id: number;
  username: string;
  role: number;
  group: string;
  /** The session that authenticated the call (absent for access-token calls). */
  sessionId?: string;
  /** The client's address (after TRUST_PROXY), for the audit log. */
  ip?: string;
}

export type AuthenticatedRequest = Request & { user?: AuthenticatedUser };

/** Anyone may call it; a signed-in caller is still recognised. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The lowest role allowed; routes without it need any signed-in user. */
export const MinRole = (role: number) => SetMetadata(MIN_ROLE, role);
export const AdminOnly = () => MinRole(10);
export const RootOnly = () => MinRole(100);

/**
 * A GET page the browser opens by navigation (the Swagger UI and its files), which cannot send
 * New-Api-User: the session cookie alone names the caller. Only for pages that carry no data
 * and change nothing; the role check still applies.
 */
export const BrowserPage = () => SetMetadata(BROWSER_PAGE, true);

/**
 * Open to an account that the TwoFactorRequirement setting obliges to enrol and that has not
 * yet: the calls enrolment itself needs. Every other signed-in route refuses it until then.
 */
export const AllowedBeforeTwoFactorEnrolment = () => SetMetadata(BEFORE_TWO_FACTOR_ENROLMENT, true);

/** Login, register, password reset and verification: counted per IP against CRITICAL_RATE_LIMIT. */
export const CriticalRateLimit = () => SetMetadata(CRITICAL_RATE_LIMIT, true);

export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedUser => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.user) throw new Error('CurrentUser used on a route without authentication');
  return request.user;
});

/** The caller's user, or undefined on a public route called anonymously. */
export const OptionalUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedUser | undefined => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().user;
});
