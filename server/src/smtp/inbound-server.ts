import os from 'node:os';
import { SMTPServer } from 'smtp-server';
import type { Core } from '../core/core.ts';
import { smtpReply } from './listen.ts';

/**
 * Herald's inbound MX: asynchronous bounces (DSNs) to VERP return paths, replies for receive
 * routes. Each recipient is resolved through the core; the bounce and route handlers arrive
 * with the delivery-engine and receive-route issues, until then no address is local and every
 * RCPT is refused with 550, which senders treat as a permanent failure.
 */
export function createInboundServer(core: Core): SMTPServer {
  const log = core.logger.child({ listener: 'smtp-inbound' });
  return new SMTPServer({
    name: core.config.hostname ?? os.hostname(),
    banner: 'Herald ESMTP inbound',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: 10_000_000,
    logger: false,
    closeTimeout: core.config.shutdownTimeoutMs,
    onRcptTo(address, session, callback) {
      log.info({ rcpt: address.address, remoteAddress: session.remoteAddress }, 'inbound recipient refused');
      callback(smtpReply(550, `5.1.1 <${address.address}>: no such mailbox here`));
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
}
