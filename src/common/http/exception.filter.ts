import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { describeDatabaseError, isDatabaseUnavailable, isUnfitValue } from '../../database/database-unavailable';
import { AppError } from '../errors/app-error';
import { REQUEST_ID_HEADER } from '../logging/request-context';
import { MessageCode, MessageParams, pickLanguage, translate } from '../i18n/catalogue';

/** Maps the HTTP errors Nest and Express raise themselves onto our catalogue. */
function describeHttpException(exception: HttpException, request: Request): { code: MessageCode; params: MessageParams } {
  switch (exception.getStatus()) {
    case HttpStatus.NOT_FOUND:
      return { code: 'common.route_not_found', params: { path: request.path } };
    case HttpStatus.PAYLOAD_TOO_LARGE:
      return { code: 'common.payload_too_large', params: {} };
    case HttpStatus.TOO_MANY_REQUESTS:
      return { code: 'common.too_many_requests', params: {} };
    case HttpStatus.UNAUTHORIZED:
      return { code: 'auth.not_logged_in', params: {} };
    case HttpStatus.FORBIDDEN:
      return { code: 'auth.forbidden', params: {} };
    case HttpStatus.BAD_REQUEST:
      // Express's JSON parser failures reach us as Nest's BadRequestException.
      if (/JSON|Unexpected|position/i.test(exception.message)) return { code: 'common.invalid_json_body', params: {} };
      return { code: 'common.bad_request', params: { detail: exception.message } };
    default:
      return { code: 'common.bad_request', params: { detail: exception.message } };
  }
}

const BODY_PARSER_MESSAGES: Record<string, MessageCode> = {
  'entity.too.large': 'common.payload_too_large',
  'entity.parse.failed': 'common.invalid_json_body',
  'entity.too.deep': 'common.json_too_deep',
};

/**
 * Body-parser errors are plain errors carrying `status` and `type`; a body that fails to
 * decompress (Content-Encoding: gzip over bytes that are not gzip) carries a 4xx `status` and
 * `expose` but no `type`.
 */
function bodyParserStatus(exception: unknown): number | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const { status, type, expose } = exception as { status?: unknown; type?: unknown; expose?: unknown };
  if (typeof status !== 'number') return undefined;
  return typeof type === 'string' || (expose === true && status >= 400 && status < 500) ? status : undefined;
}

/**
 * The one place a failure becomes an answer: `{success:false, message}` in the caller's
 * language. Unknown errors are logged with a request id and never leak a stack trace.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const context = host.switchToHttp();
    const request = context.getRequest<Request>();
    const response = context.getResponse<Response>();
    const language = pickLanguage(request.headers['accept-language']);
    if (response.headersSent) return;

    let status: number;
    let message: string;
    const parserStatus = bodyParserStatus(exception);
    if (exception instanceof AppError) {
      status = exception.httpStatus;
      message = translate(exception.code, language, exception.params);
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      const { code, params } = describeHttpException(exception, request);
      message = translate(code, language, params);
    } else if (parserStatus !== undefined) {
      status = parserStatus;
      const { type, message: detail } = exception as { type?: string; message: string };
      message = type === undefined ? translate('common.bad_request', language, { detail }) : translate(BODY_PARSER_MESSAGES[type] ?? 'common.invalid_params', language);
    } else if (isDatabaseUnavailable(exception)) {
      status = 503;
      this.logger.warn(`${request.method} ${request.path}: database unavailable (${describeDatabaseError(exception)})`);
      message = translate('common.database_unavailable', language);
    } else if (isUnfitValue(exception)) {
      // Answered like a failed validation (200, success false), which it is.
      status = 200;
      this.logger.warn(`${request.method} ${request.path}: a value the database cannot hold (${describeDatabaseError(exception)})`);
      message = translate('common.invalid_params', language);
    } else {
      // The id the answer's X-Request-Id already carries (and the JSON log lines of this request).
      const requestId = String(response.getHeader(REQUEST_ID_HEADER) ?? '') || randomUUID();
      status = 500;
      this.logger.error(`request ${requestId} ${request.method} ${request.path} failed`, exception instanceof Error ? exception.stack : String(exception));
      message = `${translate('common.internal_error', language)} (request id ${requestId})`;
    }
    response.status(status).json({ success: false, message, data: null });
  }
}
