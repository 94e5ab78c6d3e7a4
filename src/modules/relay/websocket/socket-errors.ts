import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { RelayError, relayErrorBody, REQUEST_ID_HEADER } from '../relay-error';

/** The close reason of a socket the gateway closes because it is shutting down (code 1001). */
export const GOING_AWAY = 'the gateway is shutting down';

/** A relay error as a socket's error event, OpenAI's shape for Responses and Realtime: `{"type":"error","status":…,"error":{…}}`. */
export function socketErrorFrame(error: RelayError, requestId: string): string {
  return `{"type":"error","status":${error.status},${relayErrorBody('openai', error, requestId).slice(1)}`;
}

/** Answers an upgrade the gateway will not take with the HTTP error an HTTP request would get, and closes the connection. */
export function refuseUpgrade(socket: Duplex, error: RelayError, requestId: string): void {
  const body = relayErrorBody('openai', error, requestId);
  const retryAfter = error.retryAfterSeconds === undefined ? '' : `retry-after: ${error.retryAfterSeconds}\r\n`;
  const head = `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${retryAfter}${REQUEST_ID_HEADER}: ${requestId}\r\nconnection: close\r\n\r\n`;
  socket.end(head + body);
}
