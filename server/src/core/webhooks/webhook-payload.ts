import { createHmac, randomBytes } from 'node:crypto';
import type { WebhookEventKind } from '@herald/shared';
import type { MailEvent } from '../mail-events/mail-events.service.ts';

/**
 * The fields of a push (reference §9), form-encoded, plus Herald's `isMachine` on opens and
 * clicks. Everything but `timestamp`, `token` and `signature` is fixed when the event is queued
 * (kept as the outbox row's payload); those three are made per attempt: `timestamp` is the
 * event's time in ms, `token` 50 fresh random characters, `signature` = hex
 * HMAC-SHA256(appKey, timestamp + token).
 *
 * A webhook without an app key still signs, with the empty key: the field set stays the same for
 * SendCloud clients that read it unconditionally, and such a signature proves nothing (the
 * console says so and offers to generate a key).
 */
export type PushFields = Record<string, string>;

/** What the outbox row needs to know about the message of an event. */
export interface MessageFacts {
  messageId: string;
  apiUser: string;
  labelName: string | null;
  /** SC-Custom-* headers of the message, as SendCloud's userHeaders JSON. */
  userHeaders: string | null;
}

const TRACKING_FIELDS = ['ip', 'explorerName', 'explorerVer', 'oSName', 'oSVer'] as const;

/** The fields of one push: `events` is one event, or one message's run of request events. */
export function pushFields(kind: WebhookEventKind, events: MailEvent[], message: MessageFacts): PushFields {
  const first = events[0];
  if (!first) throw new Error('a push needs an event');
  const fields: PushFields = {
    event: kind,
    message: message.messageId,
    apiUser: message.apiUser,
    category: message.apiUser,
    labelId: first.labelId === null ? '' : String(first.labelId),
    emailId: first.emailId ?? '',
    recipient: first.recipient,
  };
  if (message.labelName) fields.labelName = message.labelName;
  if (message.userHeaders) fields.userHeaders = message.userHeaders;
  const data = first.data;
  switch (kind) {
    case 'request':
      fields.messageId = message.messageId;
      fields.recipientArray = JSON.stringify(events.map((e) => e.recipient));
      fields.emailIds = JSON.stringify(events.map((e) => e.emailId ?? ''));
      fields.recipientSize = String(events.length);
      break;
    case 'deliver':
      if (data.outIp) fields.outIp = data.outIp;
      break;
    case 'click':
      fields.url = data.url ?? '';
      for (const name of TRACKING_FIELDS) fields[name] = data[name] ?? '';
      fields.isMachine = machineFlag(data.bot);
      break;
    case 'open':
      for (const name of TRACKING_FIELDS) fields[name] = data[name] ?? '';
      fields.isMachine = machineFlag(data.bot);
      break;
    case 'unsubscribe':
      for (const name of TRACKING_FIELDS) fields[name] = data[name] ?? '';
      break;
    case 'invalid':
    case 'soft_bounce':
      // Aurora's newer push adds the sub-status and its description.
      if (first.subStatus !== null) fields.subStat = String(first.subStatus);
      if (first.reason) fields.subStatDesc = first.reason;
      break;
    default:
      break;
  }
  return fields;
}

/**
 * Herald's addition to open and click pushes: "true" when an image proxy, a link scanner, a HEAD
 * request or a fetch within seconds of delivery made the hit (core/tracking), so a receiver can
 * drop it; "false" for a person. Always present on those two events, as SendCloud's string style.
 */
function machineFlag(bot: boolean | undefined): string {
  return bot === true ? 'true' : 'false';
}

/** SendCloud's userHeaders: the message's SC-Custom-* headers as a JSON object, or null. */
export function userHeadersOf(headersJson: string | null): string | null {
  if (!headersJson) return null;
  try {
    const headers = JSON.parse(headersJson) as Record<string, unknown>;
    const custom = Object.entries(headers).filter(([name]) => name.toLowerCase().startsWith('sc-custom-'));
    return custom.length > 0 ? JSON.stringify(Object.fromEntries(custom)) : null;
  } catch {
    return null;
  }
}

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A nonce of `length` letters and digits (the small modulo bias does not matter for a nonce). */
export function randomToken(length = 50): string {
  let token = '';
  for (const byte of randomBytes(length)) token += TOKEN_CHARS[byte % TOKEN_CHARS.length];
  return token;
}

export function signature(appKey: string, timestamp: string, token: string): string {
  return createHmac('sha256', appKey)
    .update(timestamp + token)
    .digest('hex');
}

/** The form body of one attempt. */
export function signedBody(fields: PushFields, appKey: string, timestamp: number): string {
  const token = randomToken();
  const time = String(timestamp);
  return new URLSearchParams({
    ...fields,
    timestamp: time,
    token,
    signature: signature(appKey, time, token),
  }).toString();
}
