import os from 'node:os';
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Anything that can carry a secret is redacted by path here, once, so
 * that no call site has to remember: credentials, tokens, cookies, API keys, private keys.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwd',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.secret',
  '*.appSecret',
  '*.privateKey',
  '*.private_key',
];

/** Query parameters whose values are credentials or single-use tokens (API keys, links' tokens). */
const SECRET_PARAMS = /^(api_?key|apikey|key|token|code|ticket|password|passwd|secret|sign(ature)?)$/i;
/** Paths whose last segment is a token: unsubscribe links, invitation and reset pages. */
const TOKEN_PATHS = /^(\/unsubscribe\/)[^/?#]+/;

/**
 * A URL fit for a log line: the values of secret query parameters and path tokens replaced, the
 * rest kept (what was called, with which harmless parameters).
 */
export function redactUrl(url: string | undefined): string | undefined {
  if (!url) return url;
  const mark = url.indexOf('?');
  const pathPart = (mark < 0 ? url : url.slice(0, mark)).replace(TOKEN_PATHS, '$1[redacted]');
  if (mark < 0) return pathPart;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // An undecodable name is kept as it is.
      }
      return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${pathPart}?${query}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export function createLogger(options: {
  level: string;
  roles: Iterable<string>;
  /** Where the lines go; stdout when absent (tests capture them). */
  destination?: pino.DestinationStream;
}): Logger {
  return pino(
    {
      level: options.level,
      base: { pid: process.pid, hostname: os.hostname(), roles: [...options.roles].join(',') },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: {
        // Replaces the HTTP server's request serializer: the same fields, the URL redacted.
        req: (req: LoggedRequest) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
    },
    options.destination,
  );
}
