import { concatenationUdh, SMS_LIMITS } from '../sms-parts.ts';

/**
 * What goes in a CMPP Msg_Content and what comes out of one. Plain ASCII travels as Msg_Fmt 0,
 * one byte a character (a single message below 160 bytes, 153 characters a part beside the
 * 6-byte UDH); anything else, Chinese above all, as Msg_Fmt 8, UCS-2 big-endian (70 units, 67 a
 * part). GB (Msg_Fmt 15) is read when a gateway delivers it but never sent: UCS-2 carries every
 * character and every gateway takes it. A cut never separates a UTF-16 surrogate pair.
 * Long parts carry the 8-bit-reference UDH of sms-parts.ts with TP_udhi = 1.
 */

export const MSG_FMT = { ascii: 0, ucs2: 8, gb: 15 } as const;

const ASCII_LIMITS = { single: 159, part: 153 };

export interface CmppContent {
  msgFmt: number;
  /** Each part's Msg_Content, the UDH first when there is more than one. */
  parts: Buffer[];
}

export function cmppContent(text: string, ref: number): CmppContent {
  const ascii = /^\p{ASCII}*$/u.test(text);
  const limits = ascii ? ASCII_LIMITS : SMS_LIMITS.ucs2;
  const encode = (s: string) => (ascii ? Buffer.from(s, 'latin1') : ucs2(s));
  if (text.length <= limits.single) return { msgFmt: ascii ? 0 : 8, parts: [encode(text)] };
  const pieces: string[] = [];
  let current = '';
  for (const char of text) {
    if (current.length + char.length > limits.part) {
      pieces.push(current);
      current = '';
    }
    current += char;
  }
  if (current) pieces.push(current);
  const parts = pieces.map((piece, index) =>
    Buffer.concat([concatenationUdh(ref, pieces.length, index + 1), encode(piece)]),
  );
  return { msgFmt: ascii ? MSG_FMT.ascii : MSG_FMT.ucs2, parts };
}

function ucs2(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  return le.swap16();
}

export function decodeText(bytes: Buffer, msgFmt: number): string {
  if (msgFmt === MSG_FMT.ucs2)
    return Buffer.from(bytes.subarray(0, bytes.length & ~1))
      .swap16()
      .toString('utf16le');
  if (msgFmt === MSG_FMT.gb) return new TextDecoder('gb18030').decode(bytes);
  if (msgFmt === MSG_FMT.ascii) return bytes.toString('latin1');
  return bytes.toString('utf8');
}

export interface Concatenation {
  ref: number;
  total: number;
  seq: number;
}

/**
 * Splits a UDH off a Msg_Content. Many gateways mark it with 0x40 (SMPP's UDHI bit) instead of 1
 * in TP_udhi, so either bit counts.
 */
export function splitUdh(
  content: Buffer,
  tpUdhi: number,
): { body: Buffer; concat: Concatenation | undefined } {
  if ((tpUdhi & 0x41) === 0 || content.length === 0) return { body: content, concat: undefined };
  const udhLength = content[0] ?? 0;
  const udh = content.subarray(1, 1 + udhLength);
  const body = content.subarray(1 + udhLength);
  for (let i = 0; i + 1 < udh.length; i += 2 + (udh[i + 1] ?? 0)) {
    const iei = udh[i];
    const ie = udh.subarray(i + 2, i + 2 + (udh[i + 1] ?? 0));
    if (iei === 0x00 && ie.length === 3) return { body, concat: { ref: ie[0]!, total: ie[1]!, seq: ie[2]! } };
    if (iei === 0x08 && ie.length === 4)
      return { body, concat: { ref: ie.readUInt16BE(0), total: ie[2]!, seq: ie[3]! } };
  }
  return { body, concat: undefined };
}

/** The parts of one long MO so far, joined as bytes so a character cut between parts survives. */
interface PendingMo {
  parts: Map<number, Buffer>;
  total: number;
  msgFmt: number;
  timer: NodeJS.Timeout;
}

/**
 * Joins the parts of a long mobile-originated message, keyed by sender, receiver, reference and
 * total. A set still incomplete after `timeoutMs` is handed on as far as it got, rather than lost.
 */
export class MoAssembler {
  private readonly pending = new Map<string, PendingMo>();
  private readonly emit: (from: string, to: string, text: string) => void;
  private readonly timeoutMs: number;

  constructor(emit: (from: string, to: string, text: string) => void, timeoutMs = 120_000) {
    this.emit = emit;
    this.timeoutMs = timeoutMs;
  }

  add(from: string, to: string, msgFmt: number, body: Buffer, concat: Concatenation | undefined): void {
    if (!concat || concat.total <= 1) return void this.emit(from, to, decodeText(body, msgFmt));
    const key = `${from}|${to}|${concat.ref}|${concat.total}`;
    let entry = this.pending.get(key);
    if (!entry) {
      const timer = setTimeout(() => this.flush(key, from, to), this.timeoutMs);
      timer.unref();
      entry = { parts: new Map(), total: concat.total, msgFmt, timer };
      this.pending.set(key, entry);
    }
    entry.parts.set(concat.seq, body);
    if (entry.parts.size >= entry.total) this.flush(key, from, to);
  }

  close(): void {
    for (const entry of this.pending.values()) clearTimeout(entry.timer);
    this.pending.clear();
  }

  private flush(key: string, from: string, to: string): void {
    const entry = this.pending.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(key);
    const ordered = [...entry.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
    this.emit(from, to, decodeText(Buffer.concat(ordered), entry.msgFmt));
  }
}

/** SUBMIT_RESP Result values (CMPP 3.0 §8.4.3.2; 9–13 since 2.1) and whether a retry could help. */
const RESULTS: Record<number, { name: string; permanent: boolean }> = {
  1: { name: 'message structure error', permanent: true },
  2: { name: 'command id error', permanent: true },
  3: { name: 'duplicate Sequence_Id', permanent: false },
  4: { name: 'message length error', permanent: true },
  5: { name: 'fee code error', permanent: true },
  6: { name: 'message too long', permanent: true },
  7: { name: 'Service_Id error', permanent: true },
  8: { name: 'flow control (too fast)', permanent: false },
  9: { name: 'charged number not served by this gateway', permanent: true },
  10: { name: 'Src_Id error', permanent: true },
  11: { name: 'Msg_src error', permanent: true },
  12: { name: 'Fee_terminal_Id error', permanent: true },
  13: { name: 'Dest_terminal_Id error', permanent: true },
};

/** `Dest_terminal_Id error (result 13)`; unknown and vendor codes (100–199) count as temporary. */
export function describeResult(result: number): { reason: string; permanent: boolean } {
  const known = RESULTS[result];
  return known
    ? { reason: `${known.name} (result ${result})`, permanent: known.permanent }
    : { reason: `other error (result ${result})`, permanent: false };
}

const CONNECT_STATUSES: Record<number, string> = {
  1: 'message structure error',
  2: 'illegal source address (SP id)',
  3: 'authentication failed (wrong SP id or shared secret)',
  4: 'version too high',
};

export function describeConnectStatus(status: number): string {
  return `${CONNECT_STATUSES[status] ?? 'other error'} (status ${status})`;
}
