import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, type Lang, resolveLang } from '@herald/shared';
import type { FastifyInstance } from 'fastify';

/**
 * A request whose body never arrives whole (the connection ends short of its Content-Length or
 * inside a chunk, or the body is still missing at the request timeout) never reaches a route:
 * Node's HTTP parser reports it to the server as a client error, and Fastify's own handler would
 * answer a plain `400 {"error":"Bad Request"}` that no SendCloud client can read. A call of one
 * of the SendCloud-compatible APIs still in flight on the socket gets its own API's refusal
 * instead (HTTP 200, the envelope, the caller's language). Fastify's handler, registered when the
 * app was made, runs after this one and leaves a socket already answered alone; it still answers
 * everything else (a console call, a broken request line).
 */

/** A refusal written straight to the socket: its content type and its body. */
export interface RawAnswer {
  contentType: string;
  body: string;
}

/** One API: the prefix of its paths and how it words a refusal (`url` as the client sent it). */
export interface ApiRefusals {
  prefix: string;
  refuse(url: string, lang: Lang, error: AppError): RawAnswer;
}

export function registerApiClientErrors(app: FastifyInstance, apis: ApiRefusals[]): void {
  const server: Server = app.server;
  // The request whose head was read last on each socket: by the time the parser gives up on a
  // body, this is the call it belonged to (Fastify's own request may still be in its hooks).
  const inFlight = new WeakMap<Socket, IncomingMessage>();
  server.on('request', (request: IncomingMessage) => inFlight.set(request.socket, request));
  server.prependListener('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const request = inFlight.get(socket);
    if (!request || request.complete || !socket.writable) return;
    const url = request.url ?? '/';
    const api = apis.find(({ prefix }) => url.toLowerCase().startsWith(prefix));
    if (!api) return;
    const refusal = refusalOf(error);
    app.log.info({ code: refusal.code, url: url.slice(0, 200), reason: error.code }, 'api call cut short');
    const answer = api.refuse(url, languageOfRaw(request), refusal);
    socket.write(
      `HTTP/1.1 200 OK\r\nContent-Type: ${answer.contentType}\r\n` +
        `Content-Length: ${Buffer.byteLength(answer.body)}\r\nConnection: close\r\n\r\n${answer.body}`,
    );
    socket.destroy();
  });
}

/** A body that stopped arriving is incomplete; any other parser error is a malformed body. */
function refusalOf(error: NodeJS.ErrnoException & { reason?: string }): AppError {
  if (error.code === 'HPE_INVALID_EOF_STATE' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new AppError('COMMON_BODY_INCOMPLETE');
  }
  return new AppError('COMMON_MALFORMED_BODY', { detail: error.reason ?? error.code ?? 'unreadable' });
}

/** The language plugin's choice (query, `lang` header, Accept-Language) read off the raw request. */
function languageOfRaw(request: IncomingMessage): Lang {
  const fromQuery = new URL(request.url ?? '/', 'http://localhost').searchParams.get('lang');
  const header = request.headers.lang;
  return resolveLang(
    fromQuery ?? (typeof header === 'string' ? header : undefined) ?? request.headers['accept-language'],
  );
}
