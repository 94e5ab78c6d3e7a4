import type { IncomingMessage } from 'node:http';

/** `application/json`, or a `+json` type such as `application/merge-patch+json`, with or without parameters. */
export function isJsonContentType(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0].trim().toLowerCase();
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/**
 * Whether a request to a JSON endpoint brings a body of another declared type (`text/plain`,
 * a form): answered 415, as a body that would otherwise be dropped or relayed mislabelled.
 * A body without a Content-Type is taken as JSON, as curl scripts and older SDKs send it.
 */
export function hasNonJsonBody(request: IncomingMessage): boolean {
  const contentType = request.headers['content-type'];
  if (!contentType || isJsonContentType(contentType)) return false;
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}
