import type { NextFunction, Request, Response } from 'express';
import { RateLimiterService } from '../common/rate-limit/rate-limiter.service';
import { pickLanguage, translate } from '../common/i18n/catalogue';
import type { GatewayMetrics } from '../modules/metrics/gateway-metrics';

/** GLOBAL_API_RATE_LIMIT: every /api request counts against the caller's IP. */
export function globalApiRateLimit(limiter: RateLimiterService, metrics: GatewayMetrics, max: number, windowSeconds: number) {
  return (request: Request, response: Response, next: NextFunction): void => {
    limiter.hit(`global-api:${request.ip}`, max, windowSeconds).then(
      (allowed) => {
        if (allowed) return next();
        if (metrics.enabled) metrics.rateLimitRefused('api');
        response.status(429).json({ success: false, message: translate('common.too_many_requests', pickLanguage(request.headers['accept-language'])), data: null });
      },
      (error: unknown) => next(error),
    );
  };
}
