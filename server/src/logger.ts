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

export function createLogger(options: { level: string; roles: Iterable<string> }): Logger {
  return pino({
    level: options.level,
    base: { pid: process.pid, hostname: os.hostname(), roles: [...options.roles].join(',') },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
