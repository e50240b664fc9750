import { createHash } from 'node:crypto';
import net from 'node:net';

/**
 * A customer's CMPP 3.0 / 2.0 client (the SP side), written here from the reference
 * (sms-carrier-protocols.md §1-§6) and apart from Herald's codec, so a test checks Herald's
 * gateway on the wire: CONNECT with the MD5 authenticator (and a check of AuthenticatorISMG),
 * SUBMIT with its SUBMIT_RESP, DELIVERs (status reports and replies) collected and answered with
 * DELIVER_RESP unless told not to, ACTIVE_TEST answered, TERMINATE.
 */
export type Version = '2.0' | '3.0';

const CMD = {
  CONNECT: 0x1,
  CONNECT_RESP: 0x80000001,
  TERMINATE: 0x2,
  TERMINATE_RESP: 0x80000002,
  SUBMIT: 0x4,
  SUBMIT_RESP: 0x80000004,
  DELIVER: 0x5,
  DELIVER_RESP: 0x80000005,
  ACTIVE_TEST: 0x8,
  ACTIVE_TEST_RESP: 0x80000008,
};

export interface Delivered {
  /** The DELIVER's own Msg_Id. */
  msgId: string;
  destId: string;
  srcTerminalId: string;
  registeredDelivery: number;
  msgFmt: number;
  tpUdhi: number;
  /** Status report fields, when registeredDelivery is 1. */
  report?: { msgId: string; stat: string; submitTime: string; doneTime: string; dest: string };
  /** Reply text (UDH cut off), when registeredDelivery is 0. */
  text?: string;
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const octets = (value: string, size: number) => {
  const b = Buffer.alloc(size);
  b.write(value.slice(0, size), 'latin1');
  return b;
};
const cstr = (raw: Buffer) => {
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('latin1');
};
const md5 = (...parts: Buffer[]) => {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return h.digest();
};
export const ucs2 = (text: string) => Buffer.from(text, 'utf16le').swap16();
const fromUcs2 = (b: Buffer) =>
  Buffer.from(b.subarray(0, b.length & ~1))
    .swap16()
    .toString('utf16le');

export class CmppCustomer {
  readonly delivered: Delivered[] = [];
  /** Answer DELIVERs (true) or leave them unanswered, as a customer that crashed would. */
  answerDelivers = true;
  private readonly socket: net.Socket;
  private readonly version: Version;
  private buffered = Buffer.alloc(0);
  private sequence = 0;
  private readonly waiting = new Map<number, (body: Buffer) => void>();
  private readonly watchers = new Set<() => void>();
  closed = false;

  private constructor(socket: net.Socket, version: Version) {
    this.socket = socket;
    this.version = version;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('close', () => {
      this.closed = true;
      for (const w of this.watchers) w();
    });
    socket.on('error', () => {});
  }

  static async open(port: number, version: Version = '3.0'): Promise<CmppCustomer> {
    const socket = net.connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new CmppCustomer(socket, version);
  }

  /** CONNECT; answers the Status and whether AuthenticatorISMG was right (status 0 only). */
  async login(name: string, secret: string, at = new Date()): Promise<{ status: number; ismgOk: boolean }> {
    const two = (n: number) => String(n).padStart(2, '0');
    const stamp = `${two(at.getMonth() + 1)}${two(at.getDate())}${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
    const auth = md5(Buffer.from(name), Buffer.alloc(9), Buffer.from(secret), Buffer.from(stamp));
    const body = Buffer.concat([
      octets(name, 6),
      auth,
      Buffer.from([this.version === '3.0' ? 0x30 : 0x20]),
      u32(Number(stamp)),
    ]);
    const resp = await this.request(CMD.CONNECT, body);
    const wide = this.version === '3.0';
    const statusBytes = resp.subarray(0, wide ? 4 : 1);
    const status = wide ? resp.readUInt32BE(0) : resp.readUInt8(0);
    const ismg = resp.subarray(wide ? 4 : 1, (wide ? 4 : 1) + 16);
    return { status, ismgOk: status === 0 && md5(statusBytes, auth, Buffer.from(secret)).equals(ismg) };
  }

  /** One SUBMIT; answers its Msg_Id (16 hex digits) and Result. */
  async submit(f: {
    destinations: string[];
    content: Buffer;
    msgFmt?: number;
    srcId?: string;
    registeredDelivery?: number;
    tpUdhi?: number;
    pkTotal?: number;
    pkNumber?: number;
  }): Promise<{ msgId: string; result: number }> {
    const wide = this.version === '3.0';
    const number = wide ? 32 : 21;
    const parts: Buffer[] = [
      Buffer.alloc(8),
      Buffer.from([f.pkTotal ?? 1, f.pkNumber ?? 1, f.registeredDelivery ?? 1, 1]),
      octets('', 10),
      Buffer.from([2]),
      octets('', number),
    ];
    if (wide) parts.push(Buffer.from([0]));
    parts.push(
      Buffer.from([0, f.tpUdhi ?? 0, f.msgFmt ?? 8]),
      octets('900001', 6),
      octets('01', 2),
      octets('000000', 6),
      octets('', 17),
      octets('', 17),
      octets(f.srcId ?? '1069000188', 21),
      Buffer.from([f.destinations.length]),
      ...f.destinations.map((d) => octets(d, number)),
    );
    if (wide) parts.push(Buffer.from([0]));
    parts.push(Buffer.from([f.content.length]), f.content, Buffer.alloc(wide ? 20 : 8));
    const resp = await this.request(CMD.SUBMIT, Buffer.concat(parts));
    return {
      msgId: resp.subarray(0, 8).toString('hex'),
      result: wide ? resp.readUInt32BE(8) : resp.readUInt8(8),
    };
  }

  /** Text as UCS-2 in parts of 67 characters with an 8-bit-reference UDH; each part's answer. */
  async submitLong(destination: string, text: string, ref: number, srcId?: string) {
    const chars = [...text];
    const pieces: string[] = [];
    for (let i = 0; i < chars.length; i += 67) pieces.push(chars.slice(i, i + 67).join(''));
    const answers: { msgId: string; result: number }[] = [];
    for (const [i, piece] of pieces.entries()) {
      const udh = Buffer.from([5, 0, 3, ref, pieces.length, i + 1]);
      answers.push(
        await this.submit({
          destinations: [destination],
          content: Buffer.concat([udh, ucs2(piece)]),
          tpUdhi: 1,
          pkTotal: pieces.length,
          pkNumber: i + 1,
          srcId,
        }),
      );
    }
    return answers;
  }

  async waitDelivered(count: number, timeoutMs = 10_000): Promise<Delivered[]> {
    const until = Date.now() + timeoutMs;
    while (this.delivered.length < count) {
      if (Date.now() > until)
        throw new Error(`${this.delivered.length} of ${count} DELIVERs within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const done = () => {
          this.watchers.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, 50);
        this.watchers.add(done);
      });
    }
    return this.delivered;
  }

  /** TERMINATE and its answer, then the socket closed. */
  async terminate(): Promise<void> {
    await this.request(CMD.TERMINATE, Buffer.alloc(0)).catch(() => undefined);
    this.socket.destroy();
  }

  /** The connection dropped without a word. */
  drop(): void {
    this.socket.destroy();
  }

  async waitClosed(timeoutMs = 5000): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return this.closed;
  }

  private request(command: number, body: Buffer): Promise<Buffer> {
    const sequence = ++this.sequence;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(sequence);
        reject(new Error(`no answer to 0x${command.toString(16)}`));
      }, 10_000);
      this.waiting.set(sequence, (resp) => {
        clearTimeout(timer);
        resolve(resp);
      });
      this.write(command, sequence, body);
    });
  }

  private write(command: number, sequence: number, body: Buffer): void {
    if (this.socket.writable)
      this.socket.write(Buffer.concat([u32(12 + body.length), u32(command), u32(sequence), body]));
  }

  private onData(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 12) {
      const length = this.buffered.readUInt32BE(0);
      if (this.buffered.length < length) break;
      const command = this.buffered.readUInt32BE(4);
      const sequence = this.buffered.readUInt32BE(8);
      const body = Buffer.from(this.buffered.subarray(12, length));
      this.buffered = this.buffered.subarray(length);
      this.onPacket(command, sequence, body);
    }
  }

  private onPacket(command: number, sequence: number, body: Buffer): void {
    if (command & 0x80000000) {
      const settle = this.waiting.get(sequence);
      this.waiting.delete(sequence);
      settle?.(body);
    } else if (command === CMD.ACTIVE_TEST) {
      this.write(CMD.ACTIVE_TEST_RESP, sequence, Buffer.from([0]));
    } else if (command === CMD.TERMINATE) {
      this.write(CMD.TERMINATE_RESP, sequence, Buffer.alloc(0));
      this.socket.end();
    } else if (command === CMD.DELIVER) {
      this.delivered.push(this.readDeliver(body));
      if (this.answerDelivers) {
        const result = this.version === '3.0' ? u32(0) : Buffer.from([0]);
        this.write(CMD.DELIVER_RESP, sequence, Buffer.concat([body.subarray(0, 8), result]));
      }
      for (const w of this.watchers) w();
    }
  }

  private readDeliver(body: Buffer): Delivered {
    const wide = this.version === '3.0';
    const number = wide ? 32 : 21;
    let at = 0;
    const take = (n: number) => {
      const slice = body.subarray(at, at + n);
      at += n;
      return slice;
    };
    const msgId = take(8).toString('hex');
    const destId = cstr(take(21));
    take(10);
    take(1);
    const tpUdhi = take(1)[0] as number;
    const msgFmt = take(1)[0] as number;
    const srcTerminalId = cstr(take(number));
    if (wide) take(1);
    const registeredDelivery = take(1)[0] as number;
    const length = take(1)[0] as number;
    const content = take(length);
    const out: Delivered = { msgId, destId, srcTerminalId, registeredDelivery, msgFmt, tpUdhi };
    if (registeredDelivery === 1) {
      out.report = {
        msgId: content.subarray(0, 8).toString('hex'),
        stat: cstr(content.subarray(8, 15)),
        submitTime: cstr(content.subarray(15, 25)),
        doneTime: cstr(content.subarray(25, 35)),
        dest: cstr(content.subarray(35, 35 + number)),
      };
    } else {
      const text = tpUdhi ? content.subarray((content[0] ?? 0) + 1) : content;
      out.text = msgFmt === 8 ? fromUcs2(text) : text.toString('latin1');
    }
    return out;
  }
}
