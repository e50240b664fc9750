import os from 'node:os';
import { SMTPServer } from 'smtp-server';
import type { Core } from '../core/core.ts';
import { smtpReply } from './listen.ts';

/**
 * SMTP submission (SendCloud-style: AUTH LOGIN with API_USER / API_KEY, then MAIL, RCPT, DATA).
 * It authenticates against the core and hands accepted mail to the core's send path, never to
 * the HTTP API. API_USERs and the send path arrive with the email accept-side issue; until an
 * API_USER exists, every login is refused with 535 as it would be for unknown credentials.
 */
export function createSubmissionServer(core: Core): SMTPServer {
  const log = core.logger.child({ listener: 'smtp-submission' });
  return new SMTPServer({
    name: core.config.hostname ?? os.hostname(),
    banner: 'Herald ESMTP submission',
    authMethods: ['LOGIN', 'PLAIN'],
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    size: 16_000_000,
    logger: false,
    closeTimeout: core.config.shutdownTimeoutMs,
    onAuth(auth, session, callback) {
      log.info({ user: auth.username, remoteAddress: session.remoteAddress }, 'smtp login refused');
      callback(smtpReply(535, '5.7.8 Authentication failed: unknown API_USER or API_KEY'));
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback(smtpReply(451, '4.3.0 Submission is not available yet')));
    },
  });
}
