import { createHash } from 'node:crypto';
import { beijingClock } from '@herald/shared';
import { type CmppVersion, Reader, VERSION_BYTE, WIDTHS, Writer } from '../sms/carriers/cmpp-codec.ts';

/**
 * The gateway (ISMG) side of CMPP 2.0 / 3.0 (reference §2-§6): what Herald reads from a customer's
 * system (CONNECT, SUBMIT, the answer to a DELIVER) and writes to it (CONNECT_RESP, SUBMIT_RESP,
 * DELIVER with a status report or a reply), from the SP side codec's field primitives so the two
 * sides share one reading of the layouts.
 */

export interface ConnectRequest {
  sourceAddr: string;
  authenticator: Buffer;
  /** The version byte: 0x20, 0x21, 0x30. */
  version: number;
  /** MMDDHHMMSS as the uint32 on the wire. */
  timestamp: number;
}

export function decodeConnect(body: Buffer): ConnectRequest {
  const reader = new Reader(body);
  const sourceAddr = reader.octets(6);
  const authenticator = Buffer.from(reader.take(16));
  const version = reader.u8();
  const timestamp = reader.uint(4);
  return { sourceAddr, authenticator, version, timestamp };
}

/**
 * The authenticator a CONNECT must carry: MD5(Source_Addr ‖ 9 NULs ‖ secret ‖ timestamp), the
 * timestamp zero-padded back to 10 digits (January's uint32 has only 9).
 */
export function expectedAuthenticator(name: string, secret: string, timestamp: number): Buffer {
  const stamp = String(timestamp).padStart(10, '0');
  return createHash('md5')
    .update(Buffer.from(name, 'latin1'))
    .update(Buffer.alloc(9))
    .update(Buffer.from(secret, 'utf8'))
    .update(Buffer.from(stamp, 'latin1'))
    .digest();
}

/** CONNECT_RESP: Status at the version's width, AuthenticatorISMG (zeros on a refusal), Version. */
export function encodeConnectResp(
  version: CmppVersion,
  status: number,
  authenticator: Buffer,
  secret: string | undefined,
): Buffer {
  const statusBytes = new Writer().uint(status, WIDTHS[version].result).done();
  const ismg =
    status === 0 && secret !== undefined
      ? createHash('md5')
          .update(statusBytes)
          .update(authenticator)
          .update(Buffer.from(secret, 'utf8'))
          .digest()
      : Buffer.alloc(16);
  return new Writer().bytes(statusBytes).bytes(ismg).u8(VERSION_BYTE[version]).done();
}

export interface SubmitRequest {
  pkTotal: number;
  pkNumber: number;
  registeredDelivery: number;
  serviceId: string;
  tpUdhi: number;
  msgFmt: number;
  msgSrc: string;
  srcId: string;
  destinations: string[];
  content: Buffer;
}

export function decodeSubmit(version: CmppVersion, body: Buffer): SubmitRequest {
  const w = WIDTHS[version];
  const reader = new Reader(body);
  reader.take(8);
  const pkTotal = reader.u8();
  const pkNumber = reader.u8();
  const registeredDelivery = reader.u8();
  reader.u8();
  const serviceId = reader.octets(10);
  reader.u8();
  reader.take(w.number + (w.numberType ? 1 : 0));
  reader.u8();
  const tpUdhi = reader.u8();
  const msgFmt = reader.u8();
  const msgSrc = reader.octets(6);
  reader.take(2 + 6 + 17 + 17);
  const srcId = reader.octets(21);
  const count = reader.u8();
  const destinations: string[] = [];
  for (let i = 0; i < count; i += 1) destinations.push(reader.octets(w.number));
  if (w.numberType) reader.u8();
  const length = reader.u8();
  const content = Buffer.from(reader.take(length));
  return {
    pkTotal,
    pkNumber,
    registeredDelivery,
    serviceId,
    tpUdhi,
    msgFmt,
    msgSrc,
    srcId,
    destinations,
    content,
  };
}

/** SUBMIT_RESP: the Msg_Id given (zeros on a refusal) and the Result. */
export function encodeSubmitResp(version: CmppVersion, msgId: Buffer, result: number): Buffer {
  return new Writer().bytes(msgId).uint(result, WIDTHS[version].result).done();
}

export interface DeliverOut {
  msgId: Buffer;
  destId: string;
  serviceId: string;
  tpUdhi: number;
  msgFmt: number;
  srcTerminalId: string;
  registeredDelivery: number;
  content: Buffer;
}

export function encodeDeliver(version: CmppVersion, f: DeliverOut): Buffer {
  const w = WIDTHS[version];
  const writer = new Writer()
    .bytes(f.msgId)
    .octets(f.destId, 21)
    .octets(f.serviceId, 10)
    .u8(0)
    .u8(f.tpUdhi)
    .u8(f.msgFmt)
    .octets(f.srcTerminalId, w.number);
  if (w.numberType) writer.u8(0);
  return writer.u8(f.registeredDelivery).u8(f.content.length).bytes(f.content).octets('', w.trailer).done();
}

/** The status report inside a DELIVER: 71 bytes in 3.0, 60 in 2.0. Times are YYMMDDHHMM. */
export function encodeStatusReport(
  version: CmppVersion,
  r: {
    msgId: Buffer;
    stat: string;
    submitTime: string;
    doneTime: string;
    destTerminalId: string;
    smscSequence: number;
  },
): Buffer {
  return new Writer()
    .bytes(r.msgId)
    .octets(r.stat, 7)
    .octets(r.submitTime, 10)
    .octets(r.doneTime, 10)
    .octets(r.destTerminalId, WIDTHS[version].number)
    .u32(r.smscSequence)
    .done();
}

/** YYMMDDHHMM in Beijing time, as reports carry it. */
export function reportTime(at: number): string {
  const d = beijingClock(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    two(d.getUTCFullYear() % 100) +
    two(d.getUTCMonth() + 1) +
    two(d.getUTCDate()) +
    two(d.getUTCHours()) +
    two(d.getUTCMinutes())
  );
}

/** Msg_Id ↔ its 16 hex digits (how Herald stores and names it). */
export const msgIdFromHex = (hex: string): Buffer => Buffer.from(hex.padStart(16, '0').slice(-16), 'hex');
