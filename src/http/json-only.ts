import type { NextFunction, Request, Response } from 'express';
import { hasNonJsonBody } from '../common/http/json-content-type';
import { pickLanguage, translate } from '../common/i18n/catalogue';

/**
 * The console API takes JSON bodies only (415 for any other type), except at the paths
 * given: payment callbacks that providers post as forms.
 */
export function jsonBodiesOnly(formPaths: readonly string[]) {
  return (request: Request, response: Response, next: NextFunction): void => {
    if (!hasNonJsonBody(request) || formPaths.includes(request.baseUrl + request.path)) return next();
    request.resume();
    response.status(415).json({ success: false, message: translate('common.unsupported_media_type', pickLanguage(request.headers['accept-language'])), data: null });
  };
}
