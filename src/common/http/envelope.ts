import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { MessageCode, MessageParams, pickLanguage, translate } from '../i18n/catalogue';

export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

/** Returned by a controller that wants a success message next to its data. */
export class ApiResult<T> {
  constructor(
    readonly data: T,
    readonly message?: MessageCode,
    readonly params?: MessageParams,
  ) {}
}

/**
 * For the rare answer that carries fields beside `data` at the top level of the envelope
 * (GET /api/pricing adds group_ratio and usable_group). The envelope's own fields win.
 */
export class ApiResultWithExtras<T> extends ApiResult<T> {
  constructor(
    data: T,
    readonly extras: Record<string, unknown>,
  ) {
    super(data);
  }
}

/** Wraps every controller answer in `{success:true, message, data}`, always with HTTP 200 (Nest would say 201 for POST). */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<Envelope> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((value: unknown) => {
        response.status(200);
        if (value instanceof ApiResult) {
          const message = value.message ? translate(value.message, pickLanguage(request.headers['accept-language']), value.params) : '';
          const extras = value instanceof ApiResultWithExtras ? value.extras : {};
          return { ...extras, success: true, message, data: value.data ?? null };
        }
        return { success: true, message: '', data: value ?? null };
      }),
    );
  }
}
