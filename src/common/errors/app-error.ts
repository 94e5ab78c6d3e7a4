import type { MessageCode, MessageParams } from '../i18n/catalogue';

/**
 * A failure we expected and can explain to the caller. The global filter turns it into
 * `{success:false, message}` in the caller's language, with `httpStatus` (200 for
 * ordinary business failures, as the console expects).
 */
export class AppError extends Error {
  constructor(
    readonly code: MessageCode,
    readonly params: MessageParams = {},
    readonly httpStatus = 200,
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export class UnauthorizedError extends AppError {
  constructor(code: MessageCode = 'auth.not_logged_in') {
    super(code, {}, 401);
  }
}

export class ForbiddenError extends AppError {
  constructor(code: MessageCode = 'auth.forbidden') {
    super(code, {}, 403);
  }
}

export class TooManyRequestsError extends AppError {
  constructor() {
    super('common.too_many_requests', {}, 429);
  }
}
