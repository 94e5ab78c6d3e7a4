import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { RESPONSES_FORMAT } from '../formats/responses.format';
import type { JsonObject } from '../wire/wire-format';
import { endpointSpec } from '../relay-endpoints';
import { RelayError } from '../relay-error';
import { tooLarge } from '../request-body';
import { RelayService } from '../relay.service';
import { checkModelAllowed, TokenAuthService } from '../token-auth.service';
import type { RelayRoute } from '../stages/relay-request';
import { ResponsesSocketBridge, type UpstreamSockets } from './responses-socket-bridge';
import { GOING_AWAY, socketErrorFrame } from './socket-errors';
import { parseSocketEvent, SocketEventSink } from './socket-event-sink';

/** The last completed response of a session, as the conversation it closed. */
interface SessionResponse {
  id: string;
  items: JsonObject[];
}

/** What one client socket keeps between its calls: its upstream sockets, and its last completed response. */
interface SocketSession {
  upstreams: UpstreamSockets;
  previous?: SessionResponse;
}

/** `/v1/responses` over WebSocket: a Responses call whose events leave as frames (shared: never modified). */
export const RESPONSES_SOCKET_ROUTE: RelayRoute = { spec: endpointSpec('responses'), inbound: RESPONSES_FORMAT, playground: false, stream: true, websocket: true };

/**
 * The Responses API's WebSocket mode, as Codex speaks it: the client sends `response.create`
 * messages (a Responses body with `type`), one at a time, and gets the same typed events as
 * the HTTP stream, one text frame each. Every message is a call of its own through the relay's
 * stages: authenticated by the upgrade's token, held, dispatched, billed and logged.
 */
@Injectable()
export class ResponsesSocketService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly relay: RelayService,
    private readonly bridge: ResponsesSocketBridge,
    private readonly tokenAuth: TokenAuthService,
  ) {}

  /** Serves one client socket; `draining` says the gateway is shutting down (the socket then closes once no response runs). */
  serve(client: WebSocket, upgrade: IncomingMessage, draining: () => boolean): { busy(): boolean } {
    const session: SocketSession = { upstreams: new Map() };
    let busy = false;
    client.on('message', (data, isBinary) => {
      if (busy) return client.send(socketErrorFrame(responseInFlight(), ''));
      const body = isBinary ? undefined : createBody(data.toString());
      if (!body) return client.send(socketErrorFrame(new RelayError('invalid_request', 'Send response.create messages: a Responses request body as JSON with "type":"response.create"', 400), ''));
      busy = true;
      void this.createResponse(client, upgrade, withHistory(body, session.previous), session).finally(() => {
        busy = false;
        if (draining()) client.close(1001, GOING_AWAY);
      });
    });
    client.on('close', () => {
      for (const upstream of session.upstreams.values()) upstream.close();
    });
    return { busy: () => busy };
  }

  private async createResponse(client: WebSocket, upgrade: IncomingMessage, body: JsonObject, session: SocketSession): Promise<void> {
    const requestId = randomUUID();
    const sink = new SocketEventSink(client);
    try {
      const { generate, ...call } = body;
      if (generate === false) return await this.warmUp(upgrade, body, session, sink);
      // `generate` is WebSocket mode's own: POST /v1/responses knows no such field.
      const message = Buffer.from(JSON.stringify(call));
      // The conversation put back in front may pass what one HTTP body may carry.
      if (message.length > this.config.relay.maxRequestBodyBytes) throw tooLarge(this.config.relay.maxRequestBodyBytes);
      await this.relay.relaySocketCall(upgrade, sink, RESPONSES_SOCKET_ROUTE, message, requestId, this.bridge.dispatcher(session.upstreams, sink));
      session.previous = conversationAfter(body, sink.completedResponse);
    } catch (error) {
      const relayError = this.relay.asRelayError(error, requestId);
      if (client.readyState === WebSocket.OPEN) client.send(socketErrorFrame(relayError, requestId));
    } finally {
      sink.end();
    }
  }

  /**
   * `generate: false` prepares the next turn and answers a Response id without output. The
   * gateway keeps the conversation itself, so nothing goes upstream and nothing is billed; the
   * token and its model access are checked as for any call.
   */
  private async warmUp(upgrade: IncomingMessage, body: JsonObject, session: SocketSession, sink: SocketEventSink): Promise<void> {
    const caller = await this.tokenAuth.authenticate(upgrade);
    if (typeof body.model !== 'string') throw new RelayError('invalid_request', 'The request names no model', 400);
    checkModelAllowed(caller, body.model);
    const response = warmUpResponse(body.model);
    sink.sendFrame(JSON.stringify({ type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress' } }));
    sink.sendFrame(JSON.stringify({ type: 'response.completed', sequence_number: 1, response }));
    session.previous = conversationAfter(body, response);
  }
}

/** A warm-up's Response: done at once, with no output and no usage. */
function warmUpResponse(model: unknown): JsonObject {
  return { id: `resp_${randomUUID().replace(/-/g, '')}`, object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'completed', model, output: [], usage: null };
}

/** OpenAI's answer to a second response.create while one is running: one response at a time per connection. */
function responseInFlight(): RelayError {
  const error = new RelayError('invalid_request', 'A response is still in progress on this connection; send the next response.create after it ends', 409);
  error.wireCode = 'response_already_in_flight';
  return error;
}

/** The Responses body of a `response.create` message, streamed (the events are the answer); undefined for any other message. */
function createBody(message: string): JsonObject | undefined {
  const parsed = parseSocketEvent(message);
  if (parsed?.type !== 'response.create') return undefined;
  // Some clients nest the body under `response`, as the Realtime API's response.create does.
  const { type: _type, response, ...rest } = parsed;
  const body = typeof response === 'object' && response !== null && !Array.isArray(response) ? { ...(response as JsonObject), ...rest } : rest;
  delete body.background;
  return { ...body, stream: true };
}

/** The input as a list of items (a string is one user message). */
function inputItems(input: unknown): JsonObject[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? (input as JsonObject[]) : [];
}

/**
 * The conversation a completed response leaves: its whole input, then its output items (the
 * Responses API takes output items back as input). Undefined when the response did not complete.
 */
function conversationAfter(body: JsonObject, completed: JsonObject | undefined): SessionResponse | undefined {
  if (!completed || typeof completed.id !== 'string' || !Array.isArray(completed.output)) return undefined;
  return { id: completed.id, items: [...inputItems(body.input), ...(completed.output as JsonObject[])] };
}

/**
 * WebSocket mode sends only the new items, with `previous_response_id` naming the response
 * before: when that is the session's last response, its conversation is put in front of them,
 * so every channel (converted ones keep no state; Codex sends `store: false`) gets the whole
 * conversation. An id the session does not know passes untouched, for an upstream that stored it.
 */
function withHistory(body: JsonObject, previous: SessionResponse | undefined): JsonObject {
  if (!previous || body.previous_response_id !== previous.id) return body;
  const { previous_response_id: _previous, ...rest } = body;
  return { ...rest, input: [...previous.items, ...inputItems(body.input)] };
}
