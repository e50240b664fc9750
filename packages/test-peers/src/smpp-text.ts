/**
 * Message-body helpers for the SMPP carrier: turning a decoded short_message into text plus
 * concatenation info, and writing delivery receipts in the de-facto standard text format
 * (SMPP 3.4 Appendix B) that Herald's receipt parser must understand. Kept separate so the
 * formats are visible at a glance and testable on their own.
 */

/** Concatenation info from a User Data Header (IEI 0x00 with 8-bit ref, or 0x08 with 16-bit ref). */
export interface Udh {
  ref: number;
  total: number;
  seq: number;
}

export type SmppReceiptStatus = 'DELIVRD' | 'UNDELIV' | 'REJECTD' | 'EXPIRED';

/** message_state TLV values (SMPP 3.4 §5.2.28) for each receipt status. */
export const MESSAGE_STATE: Record<SmppReceiptStatus, number> = {
  DELIVRD: 2,
  EXPIRED: 3,
  UNDELIV: 5,
  REJECTD: 8,
};

function parseUdh(elements: unknown): Udh | undefined {
  if (!Array.isArray(elements)) return undefined;
  for (const ie of elements) {
    if (!Buffer.isBuffer(ie)) continue;
    if (ie[0] === 0x00 && ie.length >= 5) return { ref: ie[2]!, total: ie[3]!, seq: ie[4]! };
    if (ie[0] === 0x08 && ie.length >= 6) return { ref: ie.readUInt16BE(2), total: ie[4]!, seq: ie[5]! };
  }
  return undefined;
}

/**
 * Reads a short_message / message_payload field as decoded by the `smpp` package: it has already
 * applied data_coding (0 and 1 → GSM 03.38, 3 → Latin-1, 8 → UCS-2 big-endian) and split the UDH
 * off when esm_class has UDHI set. Codings it does not know stay bytes and are read as Latin-1.
 */
export function readMessageField(value: unknown): { text: string; udh: Udh | undefined } {
  if (Buffer.isBuffer(value)) return { text: value.toString('latin1'), udh: undefined };
  if (typeof value === 'string') return { text: value, udh: undefined };
  if (value && typeof value === 'object' && 'message' in value) {
    const message = value.message;
    const text = Buffer.isBuffer(message)
      ? message.toString('latin1')
      : typeof message === 'string'
        ? message
        : '';
    return { text, udh: 'udh' in value ? parseUdh(value.udh) : undefined };
  }
  return { text: '', udh: undefined };
}

/** SMSC timestamp as used in receipts: YYMMDDhhmm, UTC. */
export function smscTime(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return (
    two(date.getUTCFullYear() % 100) +
    two(date.getUTCMonth() + 1) +
    two(date.getUTCDate()) +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes())
  );
}

export interface ReceiptFields {
  id: string;
  stat: SmppReceiptStatus;
  err: string;
  submitDate: Date;
  doneDate: Date;
  text: string;
}

/**
 * `id:<id> sub:001 dlvr:001 submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DELIVRD err:000 text:...`
 * The text excerpt keeps the first 20 characters; characters whose GSM 03.38 and ASCII codes
 * differ (non-ASCII, and $ @ [ \ ] ^ _ ` { | } ~) become '?', so the receipt reads the same whether
 * the client decodes it as GSM or as ASCII.
 */
export function formatReceipt(fields: ReceiptFields): string {
  const dlvr = fields.stat === 'DELIVRD' ? '001' : '000';
  const excerpt = [...fields.text]
    .slice(0, 20)
    .join('')
    .replace(/[^\x20-\x23\x25-\x3f\x41-\x5a\x61-\x7a]/g, '?');
  return (
    `id:${fields.id} sub:001 dlvr:${dlvr} submit date:${smscTime(fields.submitDate)} ` +
    `done date:${smscTime(fields.doneDate)} stat:${fields.stat} err:${fields.err} text:${excerpt}`
  );
}
