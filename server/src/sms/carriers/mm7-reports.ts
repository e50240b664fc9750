import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sameSecret } from '../../lib/same-secret.ts';
import type { Logger } from '../../logger.ts';

/** One MM7 carrier connection taking reports on an address. */
export interface ReportTaker {
  /** The Authorization header its relay's reports carry, or null to take reports without one. */
  authorization: string | null;
  take(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export interface ReportAddress {
  host: string;
  port: number;
}

/**
 * Where MM7 relays deliver their reports: one HTTP listener per address in this process, shared
 * by every MM7 carrier connection that names it. A report goes to the carrier whose credentials
 * it carries (HTTP Basic, the pair VASP and relay share), else to one that takes reports without
 * credentials; with neither it is answered 401 and not read. So carriers may share a port, and a
 * carrier's several connections (`connections=`) all take its reports. Listeners are opened with
 * SO_REUSEPORT, so each worker process of a host listens on the same port and the kernel spreads
 * the reports.
 */
export function joinReports(at: ReportAddress, taker: ReportTaker, logger: Logger): () => Promise<void> {
  const key = `${at.host}:${at.port}`;
  let listener = listeners.get(key);
  if (!listener) {
    listener = openListener(at, logger);
    listeners.set(key, listener);
  }
  if (taker.authorization === null) {
    if ([...listener.takers].some((other) => other.authorization === null)) {
      logger.warn(
        { ...at },
        'several MM7 connections take reports without credentials on one port: all go to the first, so only one carrier may',
      );
    }
    logger.warn(
      { ...at },
      'MM7 reports are taken without credentials (reportAuth=none): only the relay should reach this port',
    );
  }
  listener.takers.add(taker);
  const joined = listener;
  return async () => {
    joined.takers.delete(taker);
    if (joined.takers.size > 0 || listeners.get(key) !== joined) return;
    listeners.delete(key);
    await new Promise<void>((resolve) => joined.server.close(() => resolve()));
  };
}

interface Listener {
  server: Server;
  takers: Set<ReportTaker>;
}

const listeners = new Map<string, Listener>();

function openListener(at: ReportAddress, logger: Logger): Listener {
  const takers = new Set<ReportTaker>();
  const server = createServer((req, res) => {
    const taker = takerFor(takers, req.headers.authorization);
    if (!taker) {
      logger.warn({ from: req.socket.remoteAddress }, 'an MM7 report without the credentials of any carrier');
      req.resume();
      res.writeHead(401, { 'www-authenticate': 'Basic realm="MM7 reports"' }).end();
      return;
    }
    taker.take(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'an MM7 report could not be read');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.on('error', (error) => logger.error({ err: error, ...at }, 'MM7 report listener failed'));
  server.listen({ host: at.host, port: at.port, reusePort: true });
  return { server, takers };
}

function takerFor(takers: Set<ReportTaker>, authorization: string | undefined): ReportTaker | undefined {
  for (const taker of takers) {
    if (taker.authorization !== null && sameSecret(authorization, taker.authorization)) return taker;
  }
  for (const taker of takers) if (taker.authorization === null) return taker;
  return undefined;
}
