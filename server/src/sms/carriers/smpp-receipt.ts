import type { DeliveryReceipt } from '../ports.ts';

/**
 * SMPP delivery receipts. SMPP 3.4 leaves their text to the SMSC, and the de-facto format of its
 * Appendix B (`id:… sub:… dlvr:… submit date:… done date:… stat:DELIVRD err:000 text:…`) is what
 * carriers send; the receipted_message_id TLV, when present, is the more reliable id.
 * ACCEPTD and ENROUTE are interim states; every other one is final.
 */

const INTERIM = new Set(['ACCEPTD', 'ENROUTE']);

export function parseReceipt(text: string, receiptedMessageId?: string): DeliveryReceipt | undefined {
  const id = receiptedMessageId || /(?:^|\s)id:(\S+)/i.exec(text)?.[1];
  const stat = /(?:^|\s)stat:(\w+)/i.exec(text)?.[1]?.toUpperCase();
  if (!id || !stat) return undefined;
  const err = /(?:^|\s)err:(\w+)/i.exec(text)?.[1];
  return { messageId: id, stat, err, delivered: stat === 'DELIVRD', final: !INTERIM.has(stat) };
}
