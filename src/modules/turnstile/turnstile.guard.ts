import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { TurnstileService } from './turnstile.service';

/** Reads the widget's token from the `turnstile` query parameter, as the console sends it. */
@Injectable()
export class TurnstileGuard implements CanActivate {
  constructor(private readonly turnstile: TurnstileService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const token = request.query.turnstile;
    await this.turnstile.verify(typeof token === 'string' ? token : undefined, request.ip);
    return true;
  }
}

/** Login, registration, verification mail and password reset: a human check when Turnstile is on. */
export const TurnstileProtected = () => applyDecorators(UseGuards(TurnstileGuard));
