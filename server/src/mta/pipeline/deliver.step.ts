import { classifyReply, classifyTransportFailure, type DeliveryOutcome } from '../outcome/classify.ts';
import type { OpenFailure } from '../smtp-client/connection-pool.ts';
import type { SmtpConnection, TransactionResult } from '../smtp-client/smtp-connection.ts';
import { isAsciiPieces, type MessagePieces } from './message-pieces.ts';

/**
 * SMTP results as outcomes: the first refusal in the transaction decides (MAIL, RCPT, DATA, the
 * final dot), in the remote server's own words; a failure to open a connection is a transport
 * failure (deferred), except a 5xx greeting, which is the organisation refusing us.
 */
export function outcomeOfTransaction(result: TransactionResult): DeliveryOutcome | null {
  if (result.mail.code >= 400) return classifyReply(oneLine(result.mail.text));
  const rcpt = result.rcpt[0];
  if (!rcpt) return classifyReply(oneLine(result.mail.text));
  if (rcpt.code >= 400) return classifyReply(oneLine(rcpt.text));
  if (!result.data)
    return { kind: 'deferred', category: 'other', detail: 'the server gave no answer to DATA' };
  if (result.data.code !== 354) return classifyReply(oneLine(result.data.text));
  if (result.withheld) return null;
  if (!result.final)
    return { kind: 'deferred', category: 'other', detail: 'the server gave no answer to the message' };
  return classifyReply(oneLine(result.final.text));
}

export function outcomeOfOpenFailure(failure: OpenFailure): DeliveryOutcome {
  if (failure.kind === 'refused') {
    const outcome = classifyReply(oneLine(failure.text));
    return failure.host ? { ...outcome, detail: `${outcome.detail} (${failure.host})` } : outcome;
  }
  return classifyTransportFailure({
    kind: 'network',
    code: failure.code,
    message: failure.message,
    host: failure.host,
  });
}

/** Multi-line replies as parseReply reads them, but kept on one line for the send log. */
function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '\n');
}

/**
 * The relay's trace field (RFC 5321 §4.4): Herald takes the message off its queue and hands it
 * on, so it stamps it on top, above the DKIM-Signature and outside what that signs (a later hop
 * adds its own Received above this one, and none of them is in h=).
 */
export function relayReceived(stamp: { localName: string; id: string; recipient: string; at: Date }): Buffer {
  const date = receivedDate(stamp.at);
  return Buffer.from(
    `Received: by ${stamp.localName} (Herald) id ${stamp.id}\r\n\tfor <${stamp.recipient}>; ${date}\r\n`,
    'latin1',
  );
}

/** The date of the last stamp: every message delivered in the same second shares it. */
let lastStampDate = { second: Number.NaN, text: '' };

function receivedDate(at: Date): string {
  const second = Math.floor(at.getTime() / 1000);
  if (second !== lastStampDate.second) {
    lastStampDate = { second, text: at.toUTCString().replace('GMT', '+0000') };
  }
  return lastStampDate.text;
}

/**
 * The signed bytes fit for this connection: an 8-bit message for a server without 8BITMIME is
 * made 7-bit and signed again (`resign`), since re-encoding a signed body would break its hash.
 * Most servers offer 8BITMIME, so signing once for them and again for the rest costs least.
 */
export async function bytesForConnection(
  connection: Pick<SmtpConnection, 'eightBitMime'>,
  signed: MessagePieces,
  resign: () => Promise<MessagePieces>,
): Promise<MessagePieces> {
  if (connection.eightBitMime || isAsciiPieces(signed)) return signed;
  return resign();
}
