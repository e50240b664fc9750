import { readFileSync } from 'node:fs';
import os from 'node:os';
import { AppError, ipInRanges, parseIpEntry, SEND_RECIPIENTS_MAX } from '@herald/shared';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Core } from '../compose.ts';
import type { KeyCaller } from '../core/context.ts';
import { collectData, connectionOptions, guardConnections } from './connection-limits.ts';
import { greetAtOnce, smtpReply } from './listen.ts';
import { smtpReplyFor } from './submission-replies.ts';
import { prepareSubmitted } from './submission-trace.ts';
import { TrustedRelay } from './trusted-relay.ts';

/** How a submission port speaks TLS: not at all or on request (STARTTLS), or from the first byte. */
export type SubmissionMode = 'plain' | 'starttls' | 'tls';

export interface SubmissionListener {
  /** The `listener` name in the "listening" log line. */
  name: string;
  server: SMTPServer;
  port: number;
}

/**
 * The submission listeners the configuration asks for: HERALD_SMTP_PORT (2525) always, offering
 * STARTTLS when a certificate is configured; and with a certificate, 587 (STARTTLS required
 * before AUTH) and 465 (implicit TLS).
 */
export function submissionListeners(core: Core): SubmissionListener[] {
  const smtp = core.config.smtp;
  const listeners: SubmissionListener[] = [
    { name: 'smtp-submission', server: createSubmissionServer(core, 'plain'), port: smtp.submissionPort },
  ];
  if (smtp.tls) {
    listeners.push(
      {
        name: 'smtp-submission-starttls',
        server: createSubmissionServer(core, 'starttls'),
        port: smtp.starttlsPort,
      },
      { name: 'smtp-submission-tls', server: createSubmissionServer(core, 'tls'), port: smtp.tlsPort },
    );
  }
  return listeners;
}

/**
 * SMTP submission (reference §6): AUTH LOGIN or PLAIN with API_USER / API_KEY, then MAIL, RCPT,
 * DATA; the message goes to the core's accept path (never the HTTP API) and the final reply is
 * SendCloud's `250 #<messageId>#Queued`, sent only once the message and its recipients are
 * committed. Refusals: 535 bad credentials, 552 too large, 550 a sender outside the account's
 * usable domains or another refused message, 4xx when Herald itself is in trouble.
 */
export function createSubmissionServer(core: Core, mode: SubmissionMode = 'plain'): SMTPServer {
  const log = core.logger.child({ listener: 'smtp-submission', mode });
  const smtp = core.config.smtp;
  const tls = smtp.tls
    ? { key: readFileSync(smtp.tls.keyFile), cert: readFileSync(smtp.tls.certFile) }
    : undefined;
  const trusted = smtp.trusted ? new TrustedRelay(core, smtp.trusted) : undefined;
  const trustedRanges = (smtp.trusted?.networks ?? []).flatMap((n) => parseIpEntry(n) ?? []);
  const callers = new WeakMap<SMTPServerSession, KeyCaller>();
  const name = core.config.hostname ?? os.hostname();

  const callerOf = async (session: SMTPServerSession): Promise<KeyCaller | undefined> => {
    const authenticated = callers.get(session);
    if (authenticated) return authenticated;
    if (trusted && ipInRanges(session.remoteAddress, trustedRanges)) return trusted.caller();
    return undefined;
  };

  const server = new SMTPServer({
    ...connectionOptions(smtp),
    name,
    banner: 'Herald ESMTP submission',
    // Herald relays without SMTPUTF8, so it does not take mail that needs it (submission-trace.ts).
    hideSMTPUTF8: true,
    secure: mode === 'tls',
    ...(tls ?? {}),
    authMethods: ['LOGIN', 'PLAIN'],
    authOptional: true,
    allowInsecureAuth: mode === 'plain',
    disabledCommands: tls ? [] : ['STARTTLS'],
    size: smtp.maxBytes,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: core.config.shutdownTimeoutMs,
    async onAuth(auth, session, callback) {
      try {
        const caller = await core.apiUserAuth.authenticate(
          auth.username ?? '',
          auth.password ?? '',
          session.remoteAddress,
        );
        callers.set(session, caller);
        callback(null, { user: caller.apiUser.name });
      } catch (error) {
        log.info({ user: auth.username, remoteAddress: session.remoteAddress }, 'smtp login refused');
        callback(smtpReplyFor(error));
      }
    },
    async onMailFrom(address, session, callback) {
      try {
        const caller = await callerOf(session);
        if (!caller)
          return callback(smtpReply(530, '5.7.0 Authentication required: AUTH with API_USER and API_KEY'));
        await core.send.checkSender(caller, address.address);
        callback();
      } catch (error) {
        callback(smtpReplyFor(error));
      }
    },
    onRcptTo(_address, session, callback) {
      if (session.envelope.rcptTo.length >= SEND_RECIPIENTS_MAX) {
        return callback(smtpReply(452, `4.5.3 At most ${SEND_RECIPIENTS_MAX} recipients per message`));
      }
      callback();
    },
    onData(stream, session, callback) {
      const message = collectData(stream, smtp.maxBytes);
      stream.on('error', (error) => callback(smtpReplyFor(error)));
      stream.on('end', async () => {
        try {
          const submitted = message();
          if (!submitted) {
            return callback(smtpReply(552, `5.3.4 Message exceeds the size limit of ${smtp.maxBytes} bytes`));
          }
          const mime = prepareSubmitted(submitted, session, name, new Date());
          if (mime instanceof Error) return callback(mime);
          const caller = await callerOf(session);
          if (!caller) return callback(smtpReply(530, '5.7.0 Authentication required'));
          const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const result = await core.send.submit(caller, {
            mailFrom,
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            mime,
          });
          callback(null, `#${result.messageId}#Queued`);
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500)
            log.error({ err: error }, 'smtp submission failed');
          callback(smtpReplyFor(error));
        }
      });
    },
  });
  guardConnections(server, smtp, (address) => trustedRanges.length > 0 && ipInRanges(address, trustedRanges));
  greetAtOnce(server);
  return server;
}
