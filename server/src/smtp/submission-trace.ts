import net from 'node:net';
import type { SMTPServerSession } from 'smtp-server';
import { NonAsciiAddressError, wireSafe } from '../lib/mime-wire.ts';
import { smtpReply } from './listen.ts';

/**
 * What the submission server does to a message before the accept path sees it.
 *
 * Headers are made 7-bit here rather than refused: Chinese mail programs still put raw UTF-8 (or
 * GBK) in Subject and display names, and Herald relays without SMTPUTF8 (it does not offer it at
 * submission either), so such headers become RFC 2047 encoded words / RFC 2231 parameters (see
 * lib/mime-wire.ts). Only a non-ASCII address itself cannot be written in 7 bits: 553 5.6.7, the
 * reply RFC 6531 §3.6 gives. Lines over 998 octets are re-encoded the same way, so none is
 * stored; 8-bit bodies are kept as submitted and downgraded per next hop at delivery.
 *
 * Then the trace field of RFC 5321 §4.4 on top: who handed the message over, to which Herald,
 * how (RFC 3848: ESMTPSA is ESMTP with TLS and AUTH) and when. It ends up below the DKIM-Signature,
 * in the signed message (DKIM's h= does not name it, so a later hop may still add its own).
 */
export function prepareSubmitted(
  mime: Buffer,
  session: SMTPServerSession,
  localName: string,
  at: Date,
): Buffer | (Error & { responseCode: number }) {
  let clean: Buffer;
  try {
    clean = wireSafe(mime, { eightBit: true });
  } catch (error) {
    if (error instanceof NonAsciiAddressError)
      return smtpReply(
        553,
        '5.6.7 Non-ASCII addresses are not permitted: this server does not offer SMTPUTF8',
      );
    throw error;
  }
  return Buffer.concat([submissionReceived(session, localName, at), clean]);
}

export function submissionReceived(session: SMTPServerSession, localName: string, at: Date): Buffer {
  const helo = (session.hostNameAppearsAs || 'unknown').replace(/[^A-Za-z0-9.:_[\]-]/g, '');
  const ip = session.remoteAddress;
  const literal = net.isIPv6(ip) ? `[IPv6:${ip}]` : `[${ip}]`;
  const esmtp = session.openingCommand !== 'HELO';
  const protocol = `${esmtp ? 'ESMTP' : 'SMTP'}${esmtp && session.secure ? 'S' : ''}${esmtp && session.user ? 'A' : ''}`;
  const date = at.toUTCString().replace('GMT', '+0000');
  return Buffer.from(
    `Received: from ${helo} (${literal})\r\n\tby ${localName} (Herald) with ${protocol} id ${session.id};\r\n\t${date}\r\n`,
    'latin1',
  );
}
