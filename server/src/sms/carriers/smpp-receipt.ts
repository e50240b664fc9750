import type { DeliveryReceipt } from '../ports.ts';

/**
 * SMPP delivery receipts. SMPP 3.4 leaves their text to the SMSC, and the de-facto format of its
 * Appendix B (`id:… sub:… dlvr:… submit date:… done date:… stat:DELIVRD err:000 text:…`) is what
 * carriers send; the receipted_message_id TLV, when present, is the more reliable id.
 * ACCEPTD and ENROUTE are interim states; every other one is final.
 *
 * Carriers disagree with themselves about ids: submit_sm_resp may give `1a2b3c` while the receipt
 * says `id:1715004` (the same number in decimal), or the reverse, zero-padded, upper-case, or
 * longer than the 10 digits of the example. The receipt's messageId must be the very string
 * `submit` returned, so a MessageIdBook remembers the ids handed out and finds the one a receipt
 * means under every reading of it.
 */

const INTERIM = new Set(['ACCEPTD', 'ENROUTE']);

export function parseReceipt(
  text: string,
  receiptedMessageId?: string,
  book?: MessageIdBook,
): DeliveryReceipt | undefined {
  const textId = /(?:^|\s)id:(\S+)/i.exec(text)?.[1];
  const candidates = [receiptedMessageId, textId].filter((id): id is string => !!id);
  const stat = /(?:^|\s)stat:(\w+)/i.exec(text)?.[1]?.toUpperCase();
  const id = book?.match(candidates) ?? candidates[0];
  if (!id || !stat) return undefined;
  const err = /(?:^|\s)err:(\w+)/i.exec(text)?.[1];
  return { messageId: id, stat, err, delivered: stat === 'DELIVRD', final: !INTERIM.has(stat) };
}

const HEX = /^[0-9a-f]+$/i;
const DECIMAL = /^\d+$/;

/** Every key an id may be found under: its text without leading zeros, and its value read as hex and as decimal. */
function keys(id: string, order: 'remember' | 'match'): string[] {
  const bare = id.trim().toLowerCase();
  const text = `t:${bare.replace(/^0+(?=.)/, '')}`;
  const asHex = HEX.test(bare) && bare.length <= 32 ? `n:${BigInt(`0x${bare}`)}` : undefined;
  const asDecimal = DECIMAL.test(bare) && bare.length <= 40 ? `n:${BigInt(bare)}` : undefined;
  // A receipt's all-digit id is more likely decimal than hex; try that reading first.
  const readings = order === 'match' ? [asDecimal, asHex] : [asHex, asDecimal];
  return [text, ...readings].filter((key): key is string => key !== undefined);
}

/**
 * The message ids a connection returned, newest kept (`capacity` of them), so receipts naming
 * them in another notation map back. A receipt for an id not (or no longer) remembered, e.g.
 * after a restart, is rewritten in the notation the carrier's answers use when that is clear
 * (hex with letters in it, or plain decimal), else left as it came.
 */
export class MessageIdBook {
  private readonly byKey = new Map<string, string>();
  private readonly order: string[] = [];
  private readonly capacity: number;
  private style: { hex: boolean; upper: boolean; width: number } | undefined;

  constructor(capacity = 100_000) {
    this.capacity = capacity;
  }

  remember(id: string): void {
    if (!id) return;
    for (const key of keys(id, 'remember')) this.byKey.set(key, id);
    this.order.push(id);
    // Forgotten a tenth at a time, so remembering stays cheap at capacity.
    if (this.order.length > this.capacity + Math.ceil(this.capacity / 10)) {
      const old = this.order.splice(0, this.order.length - this.capacity);
      for (const gone of old)
        for (const key of keys(gone, 'remember')) if (this.byKey.get(key) === gone) this.byKey.delete(key);
    }
    if (/[a-f]/i.test(id) && HEX.test(id))
      this.style = { hex: true, upper: id !== id.toLowerCase(), width: id.length };
    // A hex id that happens to have no letter does not make the carrier's notation decimal.
    else if (DECIMAL.test(id) && !(this.style?.hex && this.style.width === id.length))
      this.style = { hex: false, upper: false, width: id.length };
  }

  /** The remembered id the first matching candidate means, else the first candidate restyled. */
  match(candidates: string[]): string | undefined {
    for (const candidate of candidates)
      for (const key of keys(candidate, 'match')) {
        const found = this.byKey.get(key);
        if (found) return found;
      }
    const first = candidates[0];
    return first === undefined ? undefined : this.restyle(first);
  }

  private restyle(id: string): string {
    const style = this.style;
    const bare = id.trim();
    if (!style) return id;
    if (style.hex && DECIMAL.test(bare) && bare.length <= 40) {
      const hex = BigInt(bare).toString(16).padStart(style.width, '0');
      return style.upper ? hex.toUpperCase() : hex;
    }
    if (!style.hex && HEX.test(bare) && /[a-f]/i.test(bare) && bare.length <= 32)
      return BigInt(`0x${bare}`).toString(10).padStart(style.width, '0');
    return id;
  }
}
