import { classifyReply, classifyTransportFailure, type DeliveryOutcome } from '../outcome/classify.ts';
import type { OpenFailure } from '../smtp-client/connection-pool.ts';
import type { TransactionResult } from '../smtp-client/smtp-connection.ts';

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
