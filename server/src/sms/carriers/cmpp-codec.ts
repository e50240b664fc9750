import { createHash } from 'node:crypto';

/**
 * CMPP 2.0 / 3.0 packets, the SP (client) side: what Herald writes (CONNECT, SUBMIT, ACTIVE_TEST,
 * TERMINATE, the answers to the gateway's requests) and what it reads (their answers, DELIVER).
 * Every packet is a 12-byte header (Total_Length, Command_Id, Sequence_Id, big-endian) and a body
 * of fixed-width fields: integers big-endian, "Octet String" fields left-aligned and padded with
 * NUL. The two versions differ only in widths: a number field is 21 bytes in 2.0 and 32 (plus a
 * one-byte type) in 3.0, a result or status is 1 byte in 2.0 and 4 in 3.0, and the trailer after
 * the content is an 8-byte Reserve in 2.0 and a 20-byte LinkID in 3.0.
 * A Msg_Id is 64 bits, beyond a JS number; Herald names it by its 16 lowercase hex digits, the
 * same string for a SUBMIT's answer and the status report about it.
 * Herald's own gateway for customers' systems (server/src/gateway/) writes the other side's
 * packets from the same Writer, Reader and widths.
 */

export type CmppVersion = '2.0' | '3.0';

export const CMPP = {
  CONNECT: 0x00000001,
  CONNECT_RESP: 0x80000001,
  TERMINATE: 0x00000002,
  TERMINATE_RESP: 0x80000002,
  SUBMIT: 0x00000004,
  SUBMIT_RESP: 0x80000004,
  DELIVER: 0x00000005,
  DELIVER_RESP: 0x80000005,
  ACTIVE_TEST: 0x00000008,
  ACTIVE_TEST_RESP: 0x80000008,
} as const;

export const VERSION_BYTE: Record<CmppVersion, number> = { '2.0': 0x20, '3.0': 0x30 };

const HEADER = 12;
/** Larger than any CMPP packet (a 3.0 SUBMIT to 99 numbers is about 3.5 KB). */
const MAX_PACKET = 8192;

export interface Widths {
  number: number;
  /** 3.0 follows each number with a one-byte type. */
  numberType: boolean;
  result: number;
  trailer: number;
}

export const WIDTHS: Record<CmppVersion, Widths> = {
  '2.0': { number: 21, numberType: false, result: 1, trailer: 8 },
  '3.0': { number: 32, numberType: true, result: 4, trailer: 20 },
};

export interface CmppFrame {
  commandId: number;
  sequenceId: number;
  body: Buffer;
}

/** Cuts a TCP stream into packets by Total_Length; throws on a length no CMPP packet has. */
export class CmppFramer {
  private buffered: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): CmppFrame[] {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const frames: CmppFrame[] = [];
    while (this.buffered.length >= HEADER) {
      const length = this.buffered.readUInt32BE(0);
      if (length < HEADER || length > MAX_PACKET) throw new Error(`CMPP packet length ${length} is invalid`);
      if (this.buffered.length < length) break;
      frames.push({
        commandId: this.buffered.readUInt32BE(4),
        sequenceId: this.buffered.readUInt32BE(8),
        body: this.buffered.subarray(HEADER, length),
      });
      this.buffered = this.buffered.subarray(length);
    }
    return frames;
  }
}

export function encodeFrame(commandId: number, sequenceId: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(HEADER + body.length, 0);
  header.writeUInt32BE(commandId, 4);
  header.writeUInt32BE(sequenceId, 8);
  return Buffer.concat([header, body]);
}

/** Fixed-width fields written and read in order. */
export class Writer {
  private readonly chunks: Buffer[] = [];
  u8(value: number): this {
    this.chunks.push(Buffer.from([value & 0xff]));
    return this;
  }
  u32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(value >>> 0);
    this.chunks.push(b);
    return this;
  }
  uint(value: number, size: number): this {
    return size === 1 ? this.u8(value) : this.u32(value);
  }
  octets(value: string, size: number): this {
    const b = Buffer.alloc(size);
    Buffer.from(value, 'latin1').copy(b, 0, 0, size);
    this.chunks.push(b);
    return this;
  }
  bytes(value: Buffer): this {
    this.chunks.push(value);
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export class Reader {
  private offset = 0;
  private readonly body: Buffer;
  constructor(body: Buffer) {
    this.body = body;
  }
  u8(): number {
    return this.take(1).readUInt8(0);
  }
  uint(size: number): number {
    return size === 1 ? this.u8() : this.take(4).readUInt32BE(0);
  }
  octets(size: number): string {
    const raw = this.take(size);
    const end = raw.indexOf(0);
    return raw.subarray(0, end < 0 ? size : end).toString('latin1');
  }
  take(size: number): Buffer {
    if (this.offset + size > this.body.length) throw new Error('CMPP packet shorter than its fields');
    const slice = this.body.subarray(this.offset, this.offset + size);
    this.offset += size;
    return slice;
  }
}

export const msgIdHex = (id: Buffer): string => id.toString('hex');

/** MMDDHHMMSS of local time: the uint32 on the wire and the 10-digit string in the hash. */
export function cmppTimestamp(date: Date): { text: string; value: number } {
  const two = (n: number) => String(n).padStart(2, '0');
  const text =
    two(date.getMonth() + 1) +
    two(date.getDate()) +
    two(date.getHours()) +
    two(date.getMinutes()) +
    two(date.getSeconds());
  return { text, value: Number(text) };
}

/** MD5(Source_Addr ‖ 9 zero bytes ‖ secret ‖ MMDDHHMMSS). */
export function authenticatorSource(spId: string, secret: string, timestamp: string): Buffer {
  return createHash('md5')
    .update(Buffer.from(spId, 'latin1'))
    .update(Buffer.alloc(9))
    .update(Buffer.from(secret, 'utf8'))
    .update(Buffer.from(timestamp, 'latin1'))
    .digest();
}

export function encodeConnect(spId: string, secret: string, version: CmppVersion, at: Date): Buffer {
  const stamp = cmppTimestamp(at);
  return new Writer()
    .octets(spId, 6)
    .bytes(authenticatorSource(spId, secret, stamp.text))
    .u8(VERSION_BYTE[version])
    .u32(stamp.value)
    .done();
}

/** CONNECT_RESP; the Status width (1 byte in 2.0, 4 in 3.0) follows from the body's length. */
export function decodeConnectResp(body: Buffer): { status: number; version: number } {
  const reader = new Reader(body);
  const status = reader.uint(body.length >= 21 ? 4 : 1);
  reader.take(16);
  return { status, version: reader.u8() };
}

export interface SubmitFields {
  pkTotal: number;
  pkNumber: number;
  registeredDelivery: number;
  msgLevel: number;
  serviceId: string;
  feeUserType: number;
  tpUdhi: number;
  msgFmt: number;
  msgSrc: string;
  feeType: string;
  feeCode: string;
  srcId: string;
  destinations: string[];
  content: Buffer;
}

export function encodeSubmit(version: CmppVersion, f: SubmitFields): Buffer {
  const w = WIDTHS[version];
  const writer = new Writer()
    .bytes(Buffer.alloc(8))
    .u8(f.pkTotal)
    .u8(f.pkNumber)
    .u8(f.registeredDelivery)
    .u8(f.msgLevel)
    .octets(f.serviceId, 10)
    .u8(f.feeUserType)
    .octets('', w.number);
  if (w.numberType) writer.u8(0);
  writer
    .u8(0)
    .u8(f.tpUdhi)
    .u8(f.msgFmt)
    .octets(f.msgSrc, 6)
    .octets(f.feeType, 2)
    .octets(f.feeCode, 6)
    .octets('', 17)
    .octets('', 17)
    .octets(f.srcId, 21)
    .u8(f.destinations.length);
  for (const destination of f.destinations) writer.octets(destination, w.number);
  if (w.numberType) writer.u8(0);
  return writer.u8(f.content.length).bytes(f.content).octets('', w.trailer).done();
}

/** SUBMIT_RESP and DELIVER_RESP share their layout: Msg_Id and Result. */
export function decodeResp(version: CmppVersion, body: Buffer): { msgId: string; result: number } {
  const reader = new Reader(body);
  const msgId = msgIdHex(reader.take(8));
  return { msgId, result: reader.uint(WIDTHS[version].result) };
}

export function encodeDeliverResp(version: CmppVersion, msgId: Buffer, result: number): Buffer {
  return new Writer().bytes(msgId).uint(result, WIDTHS[version].result).done();
}

/** ACTIVE_TEST_RESP's body: one reserved byte. */
export const ACTIVE_TEST_RESP_BODY = Buffer.from([0]);

export interface Deliver {
  msgId: Buffer;
  destId: string;
  serviceId: string;
  tpUdhi: number;
  msgFmt: number;
  srcTerminalId: string;
  registeredDelivery: number;
  content: Buffer;
}

export function decodeDeliver(version: CmppVersion, body: Buffer): Deliver {
  const w = WIDTHS[version];
  const reader = new Reader(body);
  const msgId = Buffer.from(reader.take(8));
  const destId = reader.octets(21);
  const serviceId = reader.octets(10);
  reader.u8();
  const tpUdhi = reader.u8();
  const msgFmt = reader.u8();
  const srcTerminalId = reader.octets(w.number);
  if (w.numberType) reader.u8();
  const registeredDelivery = reader.u8();
  const length = reader.u8();
  const content = Buffer.from(reader.take(length));
  return { msgId, destId, serviceId, tpUdhi, msgFmt, srcTerminalId, registeredDelivery, content };
}

export interface StatusReport {
  msgId: string;
  stat: string;
  destTerminalId: string;
}

/**
 * The status report inside a DELIVER's Msg_Content: 71 bytes in 3.0, 60 in 2.0. Some gateways
 * send the 60-byte layout on 3.0 too, so the layout follows the content's length, not the version.
 */
export function decodeStatusReport(content: Buffer): StatusReport {
  const reader = new Reader(content);
  const msgId = msgIdHex(reader.take(8));
  const stat = reader.octets(7).trim().toUpperCase();
  reader.take(20);
  const destTerminalId = reader.octets(content.length >= 71 ? 32 : 21);
  return { msgId, stat, destTerminalId };
}
