import { createHash } from 'node:crypto';

/**
 * CMPP 2.0 / 3.0 packets as a gateway (ISMG) reads and writes them, written apart from Herald's
 * client codec so the two check each other. Layouts are tables of [field, width] read in order;
 * a width of 'n' is a phone-number field: 21 bytes in 2.0, 32 plus a one-byte type in 3.0.
 * Octet strings are NUL-padded; integers big-endian.
 */

export type CmppVersion = '2.0' | '3.0';

export const CMD = {
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

export interface Packet {
  command: number;
  sequence: number;
  body: Buffer;
}

export function packet(command: number, sequence: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(out.length, 0);
  out.writeUInt32BE(command, 4);
  out.writeUInt32BE(sequence, 8);
  body.copy(out, 12);
  return out;
}

/** Splits a byte stream into packets; `undefined` for a length no packet can have. */
export function packetReader(): (chunk: Buffer) => Packet[] | undefined {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    const out: Packet[] = [];
    while (pending.length >= 12) {
      const total = pending.readUInt32BE(0);
      if (total < 12 || total > 10_000) return undefined;
      if (pending.length < total) break;
      out.push({
        command: pending.readUInt32BE(4),
        sequence: pending.readUInt32BE(8),
        body: Buffer.from(pending.subarray(12, total)),
      });
      pending = pending.subarray(total);
    }
    return out;
  };
}

type Width = number | 'n';
type Fields = Record<string, number | string | Buffer>;

const numberWidth = (v: CmppVersion) => (v === '3.0' ? 32 : 21);

/** Reads `layout` from `body`: numeric widths 1/4 give numbers, 8 gives a Buffer (a Msg_Id). */
function read(version: CmppVersion, body: Buffer, layout: [string, Width][], octets: Set<string>): Fields {
  const out: Fields = {};
  let at = 0;
  for (const [name, width] of layout) {
    if (width === 'n') {
      const size = numberWidth(version);
      out[name] = cstr(body.subarray(at, at + size));
      at += size + (version === '3.0' ? 1 : 0);
    } else if (octets.has(name)) {
      out[name] = cstr(body.subarray(at, at + width));
      at += width;
    } else {
      if (at + width > body.length) throw new Error(`CMPP body too short for ${name}`);
      out[name] =
        width === 1
          ? body.readUInt8(at)
          : width === 4
            ? body.readUInt32BE(at)
            : Buffer.from(body.subarray(at, at + width));
      at += width;
    }
  }
  return out;
}

function cstr(raw: Buffer): string {
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul < 0 ? raw.length : nul).toString('latin1');
}

export function octets(value: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  out.write(value.slice(0, size), 'latin1');
  return out;
}

const u8 = (n: number) => Buffer.from([n]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const uint = (n: number, version: CmppVersion) => (version === '3.0' ? u32(n) : u8(n));
const phone = (value: string, version: CmppVersion) =>
  version === '3.0' ? Buffer.concat([octets(value, 32), u8(0)]) : octets(value, 21);

export const md5 = (...parts: Buffer[]): Buffer => {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

export interface ConnectRequest {
  sourceAddr: string;
  authenticator: Buffer;
  version: number;
  timestamp: number;
}

export function parseConnect(body: Buffer): ConnectRequest {
  const f = read(
    '2.0',
    body,
    [
      ['sourceAddr', 6],
      ['authenticator', 16],
      ['version', 1],
      ['timestamp', 4],
    ],
    new Set(['sourceAddr']),
  );
  return f as unknown as ConnectRequest;
}

/** MD5(Source_Addr ‖ 9 NULs ‖ secret ‖ the timestamp as 10 digits, zero-padded). */
export function expectedAuthenticator(spId: string, secret: string, timestamp: number): Buffer {
  const stamp = String(timestamp).padStart(10, '0');
  return md5(Buffer.from(spId, 'latin1'), Buffer.alloc(9), Buffer.from(secret), Buffer.from(stamp));
}

/** CONNECT_RESP; AuthenticatorISMG = MD5(Status at its wire width ‖ AuthenticatorSource ‖ secret). */
export function connectResp(
  version: CmppVersion,
  status: number,
  source: Buffer,
  secret: string | undefined,
  versionByte: number,
): Buffer {
  const statusBytes = uint(status, version);
  const ismg =
    status === 0 && secret !== undefined ? md5(statusBytes, source, Buffer.from(secret)) : Buffer.alloc(16);
  return Buffer.concat([statusBytes, ismg, u8(versionByte)]);
}

export interface SubmitPdu {
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

export function parseSubmit(version: CmppVersion, body: Buffer): SubmitPdu {
  const head = read(
    version,
    body,
    [
      ['msgId', 8],
      ['pkTotal', 1],
      ['pkNumber', 1],
      ['registeredDelivery', 1],
      ['msgLevel', 1],
      ['serviceId', 10],
      ['feeUserType', 1],
      ['feeTerminalId', 'n'],
      ['tpPid', 1],
      ['tpUdhi', 1],
      ['msgFmt', 1],
      ['msgSrc', 6],
      ['feeType', 2],
      ['feeCode', 6],
      ['validTime', 17],
      ['atTime', 17],
      ['srcId', 21],
      ['destUsrTl', 1],
    ],
    new Set(['serviceId', 'msgSrc', 'feeType', 'feeCode', 'validTime', 'atTime', 'srcId']),
  );
  const fixed = version === '3.0' ? 129 : 117;
  const count = Number(head.destUsrTl);
  const width = numberWidth(version);
  const destinations: string[] = [];
  for (let i = 0; i < count; i += 1)
    destinations.push(cstr(body.subarray(fixed + i * width, fixed + (i + 1) * width)));
  let at = fixed + count * width + (version === '3.0' ? 1 : 0);
  const length = body.readUInt8(at);
  at += 1;
  if (at + length > body.length) throw new Error('CMPP SUBMIT content runs past the packet');
  const content = Buffer.from(body.subarray(at, at + length));
  return { ...(head as unknown as Omit<SubmitPdu, 'destinations' | 'content'>), destinations, content };
}

/** SUBMIT_RESP and DELIVER_RESP bodies: Msg_Id and Result (1 byte in 2.0, 4 in 3.0). */
export function msgIdResp(version: CmppVersion, msgId: Buffer, result: number): Buffer {
  return Buffer.concat([msgId, uint(result, version)]);
}

export function parseMsgIdResp(version: CmppVersion, body: Buffer): { msgId: Buffer; result: number } {
  const f = read(
    version,
    body,
    [
      ['msgId', 8],
      ['result', version === '3.0' ? 4 : 1],
    ],
    new Set(),
  );
  return { msgId: f.msgId as Buffer, result: Number(f.result) };
}

export interface DeliverFields {
  msgId: Buffer;
  destId: string;
  serviceId: string;
  tpUdhi: number;
  msgFmt: number;
  srcTerminalId: string;
  registeredDelivery: number;
  content: Buffer;
}

export function deliverBody(version: CmppVersion, f: DeliverFields): Buffer {
  return Buffer.concat([
    f.msgId,
    octets(f.destId, 21),
    octets(f.serviceId, 10),
    u8(0),
    u8(f.tpUdhi),
    u8(f.msgFmt),
    phone(f.srcTerminalId, version),
    u8(f.registeredDelivery),
    u8(f.content.length),
    f.content,
    Buffer.alloc(version === '3.0' ? 20 : 8),
  ]);
}

/** YYMMDDHHMM, local time. */
export function reportTime(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getFullYear() % 100)}${two(date.getMonth() + 1)}${two(date.getDate())}${two(date.getHours())}${two(date.getMinutes())}`;
}

/** The status report in a DELIVER's Msg_Content: 71 bytes in 3.0, 60 in 2.0. */
export function reportContent(
  version: CmppVersion,
  r: { msgId: Buffer; stat: string; submitted: Date; done: Date; destination: string; smscSequence: number },
): Buffer {
  return Buffer.concat([
    r.msgId,
    octets(r.stat, 7),
    octets(reportTime(r.submitted), 10),
    octets(reportTime(r.done), 10),
    octets(r.destination, version === '3.0' ? 32 : 21),
    u32(r.smscSequence),
  ]);
}

/** Msg_Id: month 4 bits, day 5, hour 5, minute 6, second 6, gateway code 22, sequence 16. */
export function makeMsgId(at: Date, gateway: number, sequence: number): Buffer {
  const value =
    (BigInt(at.getMonth() + 1) << 60n) |
    (BigInt(at.getDate()) << 55n) |
    (BigInt(at.getHours()) << 50n) |
    (BigInt(at.getMinutes()) << 44n) |
    (BigInt(at.getSeconds()) << 38n) |
    (BigInt(gateway & 0x3fffff) << 16n) |
    BigInt(sequence & 0xffff);
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(value);
  return out;
}

/** Decodes Msg_Content by Msg_Fmt: 8 UCS-2 big-endian, 15 GB, 0 ASCII, others Latin-1. */
export function decodeContent(bytes: Buffer, msgFmt: number): string {
  if (msgFmt === 8)
    return Buffer.from(bytes.subarray(0, bytes.length & ~1))
      .swap16()
      .toString('utf16le');
  if (msgFmt === 15) return new TextDecoder('gb18030').decode(bytes);
  return bytes.toString('latin1');
}

export function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}
