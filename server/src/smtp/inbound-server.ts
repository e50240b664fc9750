import os from 'node:os';
import { SMTPServer } from 'smtp-server';
import type { Core } from '../compose.ts';
import type { RoutedRecipient } from '../core/mail-routes/mail-routes.service.ts';
import { collectData, connectionOptions, guardConnections } from './connection-limits.ts';
import { smtpReply } from './listen.ts';

/**
 * Herald's inbound MX. It takes asynchronous bounces (DSNs) addressed to VERP return paths
 * (`b-<id>-<tag>@<bounce domain>`, or an account's mail_from domain; the tag is checked at RCPT,
 * so only addresses Herald issued are accepted), parsed and attributed to their recipient row by
 * the delivery engine (core.delivery.recordBounce); and mail for the accounts' receive routes
 * (core.mailRoutes), handed on before the 250. Anything else is refused with 550, which senders
 * treat as a permanent failure.
 */
const MAX_BOUNCE_BYTES = 10_000_000;

export function createInboundServer(core: Core): SMTPServer {
  const log = core.logger.child({ listener: 'smtp-inbound' });
  /** Routed recipients first, then bounces; the reply names what was done. */
  const handOn = async (raw: Buffer, routed: RoutedRecipient[], bounceTo: string[]): Promise<string> => {
    const done: string[] = [];
    if (routed.length > 0) {
      await core.mailRoutes.receive(raw, routed);
      log.info({ recipients: routed.length }, 'inbound mail routed');
      done.push('routed');
    }
    if (bounceTo.length > 0) {
      const result = await core.delivery.recordBounce(raw, bounceTo);
      log.info({ result }, 'inbound bounce');
      done.push(result.kind === 'ignored' ? `nothing to record: ${result.reason}` : 'bounce recorded');
    }
    return `2.0.0 ok, ${done.join('; ')}`;
  };
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
      core.mailRoutes.routeOf(address.address).then(
        (routed) => {
          if (routed) {
            routedOf(session).set(address.address, routed);
            return callback();
          }
          log.info(
            { rcpt: address.address, remoteAddress: session.remoteAddress },
            'inbound recipient refused',
          );
          callback(smtpReply(550, `5.1.1 <${address.address}>: no such mailbox here`));
        },
        (error: unknown) => {
          log.error({ err: error }, 'looking up a receive route failed');
          callback(smtpReply(451, '4.3.0 try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      const message = collectData(stream, MAX_BOUNCE_BYTES);
      stream.on('end', () => {
        const raw = message();
        if (!raw) return callback(smtpReply(552, '5.3.4 message too big'));
        const routed = routedOf(session);
        const bounceTo = session.envelope.rcptTo.map((r) => r.address).filter((a) => !routed.has(a));
        handOn(raw, [...routed.values()], bounceTo).then(
          (reply) => callback(null, reply),
          (error: unknown) => {
            log.error({ err: error }, 'handling an inbound mail failed');
            callback(smtpReply(451, '4.3.0 try again later'));
          },
        );
      });
    },
  });
  guardConnections(server, core.config.smtp);
  return server;
}

/** The routed recipients of one SMTP transaction (a new map per session's envelope). */
const routedBySession = new WeakMap<object, Map<string, RoutedRecipient>>();
function routedOf(session: { envelope: object }): Map<string, RoutedRecipient> {
  let routed = routedBySession.get(session.envelope);
  if (!routed) {
    routed = new Map();
    routedBySession.set(session.envelope, routed);
  }
  return routed;
}
