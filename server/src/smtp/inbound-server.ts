import os from 'node:os';
import { SMTPServer } from 'smtp-server';
import type { Core } from '../compose.ts';
import { collectData, connectionOptions, guardConnections } from './connection-limits.ts';
import { smtpReply } from './listen.ts';

/**
 * Herald's inbound MX. Today it takes asynchronous bounces (DSNs) addressed to VERP return paths
 * (`b-<id>-<tag>@<bounce domain>`, or an account's mail_from domain): the tag is checked at RCPT,
 * so only addresses Herald issued are accepted and anything else is refused with 550, which
 * senders treat as a permanent failure. The report is parsed and attributed to its recipient row
 * by the delivery engine (core.delivery.recordBounce). Receive routes will add their addresses
 * here later.
 */
const MAX_BOUNCE_BYTES = 10_000_000;

export function createInboundServer(core: Core): SMTPServer {
  const log = core.logger.child({ listener: 'smtp-inbound' });
  const server = new SMTPServer({
    ...connectionOptions(core.config.smtp),
    name: core.config.hostname ?? os.hostname(),
    banner: 'Herald ESMTP inbound',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_BOUNCE_BYTES,
    logger: false,
    closeTimeout: core.config.shutdownTimeoutMs,
    onRcptTo(address, session, callback) {
      if (core.delivery.acceptsBounceAddress(address.address)) return callback();
      log.info({ rcpt: address.address, remoteAddress: session.remoteAddress }, 'inbound recipient refused');
      callback(smtpReply(550, `5.1.1 <${address.address}>: no such mailbox here`));
    },
    onData(stream, session, callback) {
      const message = collectData(stream, MAX_BOUNCE_BYTES);
      stream.on('end', () => {
        const raw = message();
        if (!raw) return callback(smtpReply(552, '5.3.4 message too big'));
        const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
        core.delivery.recordBounce(raw, envelopeTo).then(
          (result) => {
            log.info({ result, remoteAddress: session.remoteAddress }, 'inbound bounce');
            callback(
              null,
              result.kind === 'ignored'
                ? `2.0.0 ok, nothing to record: ${result.reason}`
                : '2.0.0 bounce recorded',
            );
          },
          (error: unknown) => {
            log.error({ err: error }, 'recording an inbound bounce failed');
            callback(smtpReply(451, '4.3.0 try again later'));
          },
        );
      });
    },
  });
  guardConnections(server, core.config.smtp);
  return server;
}
