import { isAscii } from 'node:buffer';
import { writeSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import tls from 'node:tls';
import { joinedWhenSmall } from '../../lib/joined-when-small.ts';
import { dotStuff } from './dot-stuff.ts';

const END_OF_DATA = Buffer.from('.\r\n');
/** How long a final dot waits for room in a full kernel send buffer before it is asked for again. */
const DOT_RETRY_MS = 10;

/**
 * Herald's own SMTP client for outbound delivery (RFC 5321, ESMTP PIPELINING RFC 2920, STARTTLS
 * RFC 3207, AUTH PLAIN/LOGIN RFC 4954). It is small and not nodemailer on purpose: delivering
 * exactly once needs control over the end of DATA. `send` writes the message body, then hands the
 * caller's `beforeDot` the transaction's FinalDot; the caller commits its "dot sent" mark and has the
 * dot written straight into the kernel right behind the commit, in the same call (see
 * pipeline/dot-marker.ts), so a process killed before the mark leaves the remote side with an
 * unfinished transaction (which it discards) and a process killed after the write has handed the
 * dot to the kernel, which delivers the buffered bytes of a dead process.
 *
 * Every remote answer comes back as an SmtpAnswer; only the transport failing (connect, reset,
 * timeout, TLS) rejects, with an SmtpTransportError carrying a code for classifyTransportFailure.
 */

export interface SmtpAnswer {
  code: number;
  /** The reply's lines joined with "\n", codes included (for parseReply and the send log). */
  text: string;
}

export class SmtpTransportError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'SmtpTransportError';
    this.code = code;
  }
}

export interface ConnectOptions {
  host: string;
  port: number;
  /** Name the TLS certificate is checked against / SNI. */
  servername?: string;
  /** TLS from the first byte (smtps, port 465). */
  implicitTls?: boolean;
  rejectUnauthorized?: boolean;
  timeoutMs: number;
  /** Our name in EHLO. */
  localName: string;
  /** The local address to send from (a dedicated IP; plain connections only, as MX delivery opens); the system's choice when absent. */
  localAddress?: string;
}

export interface TransactionResult {
  mail: SmtpAnswer;
  rcpt: SmtpAnswer[];
  /** 354 or the refusal of DATA; null when DATA was not reached. */
  data: SmtpAnswer | null;
  /** The reply to the final dot; null when the body was not sent or the dot was withheld. */
  final: SmtpAnswer | null;
  /** beforeDot said no: the transaction was abandoned and the connection closed. */
  withheld: boolean;
}

/** What writing the final dot did: it is in the kernel, the kernel has no room for it yet, or the connection is gone. */
export type DotWrite = 'written' | 'busy' | 'dead';

/** The final dot of one transaction, for a caller that commits a mark before it is written. */
export interface FinalDot {
  /** The connection can take the dot now: alive, and nothing of ours queued ahead of it. */
  ready(): boolean;
  /** Writes ".\r\n" into the kernel within this call, or says why it did not. */
  write(): DotWrite;
}

/** What the caller of `send` did with the final dot: written, refused (the transaction is abandoned), or to be asked again (the kernel had no room). */
export type DotDecision = 'sent' | 'withheld' | 'busy';

/** A `beforeDot` for a transaction that keeps no mark: the dot goes out as soon as it can. */
export async function dotWithoutMark(dot: FinalDot): Promise<DotDecision> {
  const attempt = dot.write();
  return attempt === 'written' ? 'sent' : attempt === 'busy' ? 'busy' : 'withheld';
}

interface Waiter {
  resolve(answer: SmtpAnswer): void;
  reject(error: Error): void;
}

export class SmtpConnection {
  private socket: net.Socket | tls.TLSSocket;
  private buffer = '';
  private lines: string[] = [];
  private readonly waiters: Waiter[] = [];
  private failure: SmtpTransportError | null = null;
  private readonly timeoutMs: number;
  readonly host: string;
  readonly remoteAddress: string;
  /** The address this side sends from (a deliver event's outIp). */
  readonly localAddress: string | null;
  extensions = new Map<string, string>();
  secure: boolean;
  /** Set when the session must be RSET before the next MAIL. */
  private dirty = false;
  /** Transactions completed on this connection. */
  used = 0;

  private constructor(socket: net.Socket | tls.TLSSocket, options: ConnectOptions) {
    this.socket = socket;
    this.host = options.host;
    this.remoteAddress = socket.remoteAddress ?? options.host;
    this.localAddress = socket.localAddress ?? null;
    this.timeoutMs = options.timeoutMs;
    this.secure = socket instanceof tls.TLSSocket;
    this.attach(socket);
  }

  static async open(options: ConnectOptions): Promise<SmtpConnection> {
    const socket = await new Promise<net.Socket | tls.TLSSocket>((resolve, reject) => {
      const s = options.implicitTls
        ? tls.connect({
            host: options.host,
            port: options.port,
            servername: net.isIP(options.servername ?? options.host)
              ? undefined
              : (options.servername ?? options.host),
            rejectUnauthorized: options.rejectUnauthorized ?? false,
          })
        : net.connect({ host: options.host, port: options.port, localAddress: options.localAddress });
      const timer = setTimeout(() => {
        s.destroy();
        reject(new SmtpTransportError('ETIMEDOUT', `connect to ${options.host}:${options.port} timed out`));
      }, options.timeoutMs);
      const fail = (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        s.destroy();
        reject(new SmtpTransportError(error.code ?? 'ECONNECTION', error.message));
      };
      s.once('error', fail);
      s.once(options.implicitTls ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        s.off('error', fail);
        resolve(s);
      });
    });
    socket.setNoDelay(true);
    const connection = new SmtpConnection(socket, options);
    try {
      const greeting = await connection.read();
      if (greeting.code !== 220) {
        connection.destroy();
        throw new SmtpRefusal(greeting);
      }
      await connection.hello(options.localName);
    } catch (error) {
      connection.destroy();
      throw error;
    }
    return connection;
  }

  get alive(): boolean {
    return this.failure === null && !this.socket.destroyed;
  }

  get pipelining(): boolean {
    return this.extensions.has('PIPELINING');
  }

  /** The server takes 8-bit bodies (RFC 6152). */
  get eightBitMime(): boolean {
    return this.extensions.has('8BITMIME');
  }

  /** EHLO, falling back to HELO for an old server. */
  async hello(localName: string): Promise<void> {
    const ehlo = await this.command(`EHLO ${localName}`);
    if (ehlo.code === 250) {
      this.extensions = new Map();
      for (const line of ehlo.text.split('\n').slice(1)) {
        const words = line.slice(4).trim().split(/\s+/);
        const keyword = (words[0] ?? '').toUpperCase();
        if (keyword) this.extensions.set(keyword, words.slice(1).join(' '));
      }
      return;
    }
    const helo = await this.command(`HELO ${localName}`);
    if (helo.code !== 250) throw new SmtpRefusal(helo);
    this.extensions = new Map();
  }

  /** Upgrades to TLS when the server offers STARTTLS; false when it does not. */
  async startTls(options: {
    servername: string;
    rejectUnauthorized: boolean;
    localName: string;
  }): Promise<boolean> {
    if (this.secure || !this.extensions.has('STARTTLS')) return this.secure;
    const answer = await this.command('STARTTLS');
    if (answer.code !== 220) return false;
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('error');
    plain.removeAllListeners('close');
    const secured = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const s = tls.connect({
        socket: plain,
        servername: net.isIP(options.servername) ? undefined : options.servername,
        rejectUnauthorized: options.rejectUnauthorized,
      });
      const timer = setTimeout(() => {
        s.destroy();
        reject(new SmtpTransportError('ETIMEDOUT', 'TLS handshake timed out'));
      }, this.timeoutMs);
      s.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new SmtpTransportError(error.code ?? 'ETLS', `TLS handshake failed: ${error.message}`));
      });
      s.once('secureConnect', () => {
        clearTimeout(timer);
        s.removeAllListeners('error');
        resolve(s);
      });
    });
    this.socket = secured;
    this.secure = true;
    this.attach(secured);
    await this.hello(options.localName);
    return true;
  }

  /** AUTH PLAIN (or LOGIN when only that is offered); the refusal comes back as an answer. */
  async auth(user: string, pass: string): Promise<SmtpAnswer> {
    const mechanisms = (this.extensions.get('AUTH') ?? '').toUpperCase().split(/\s+/);
    if (!mechanisms.includes('PLAIN') && mechanisms.includes('LOGIN')) {
      const first = await this.command('AUTH LOGIN');
      if (first.code !== 334) return first;
      const second = await this.command(Buffer.from(user).toString('base64'));
      if (second.code !== 334) return second;
      return this.command(Buffer.from(pass).toString('base64'));
    }
    return this.command(`AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`).toString('base64')}`);
  }

  /**
   * One mail transaction. MAIL, RCPT… and DATA go out in one write when the server pipelines,
   * the message and its final dot in another once `beforeDot` allows it.
   * The body must be a complete message with CRLF line ends, whole or as pieces in order (never
   * joined here); it is dot-stuffed here.
   */
  async send(
    envelope: { from: string; to: string[] },
    message: Buffer | readonly Buffer[],
    beforeDot: (dot: FinalDot) => Promise<DotDecision>,
  ): Promise<TransactionResult> {
    const body = Buffer.isBuffer(message) ? [message] : message;
    const length = body.reduce((sum, piece) => sum + piece.length, 0);
    const size = this.extensions.has('SIZE') ? ` SIZE=${length}` : '';
    // RFC 6152: 8-bit data only to a server that offers 8BITMIME, and then declared as such. The
    // pipeline re-encodes a message for a 7-bit server before signing it (mime-wire.ts); one that
    // still reaches here is refused rather than sent.
    const eightBit = !body.every((piece) => isAscii(piece));
    if (eightBit && !this.eightBitMime) {
      throw new SmtpTransportError('E8BIT', `${this.host} does not offer 8BITMIME and the message is 8-bit`);
    }
    const bodyParam = eightBit ? ' BODY=8BITMIME' : '';
    const rset = this.dirty;
    const commands = [
      ...(rset ? ['RSET'] : []),
      `MAIL FROM:<${envelope.from}>${bodyParam}${size}`,
      ...envelope.to.map((to) => `RCPT TO:<${to}>`),
      'DATA',
    ];
    this.dirty = true;
    let answers: SmtpAnswer[];
    if (this.pipelining) {
      const pending = commands.map(() => this.read());
      this.write(`${commands.join('\r\n')}\r\n`);
      answers = await Promise.all(pending);
    } else {
      answers = [];
      for (const command of commands) {
        const answer = await this.command(command);
        answers.push(answer);
        if (command !== 'RSET' && answer.code >= 400) break;
      }
    }
    if (rset) answers.shift();
    const [mail, ...rest] = answers as [SmtpAnswer, ...SmtpAnswer[]];
    const rcpt = rest.slice(0, envelope.to.length);
    const data = rest[envelope.to.length] ?? null;
    const result: TransactionResult = { mail, rcpt, data, final: null, withheld: false };
    if (data?.code !== 354) return result;
    const accepted = rcpt.some((r) => r.code >= 200 && r.code < 300);
    if (!accepted) {
      // A server that said 354 with no valid recipient gets an empty message ended at once.
      const final = this.read();
      this.write('.\r\n');
      await final;
      return result;
    }
    // The body goes out first and must be in the kernel before the mark is asked for: once the
    // mark is durable, only the three bytes of the final dot are left to write, and they go
    // straight to the kernel in one system call (nothing is queued ahead of them). A body still
    // queued in this process when the mark commits would be lost with the process, its row marked
    // as sent. A kernel buffer still full of the body (a slow reader) answers "busy": the caller
    // takes its mark back and asks again a little later.
    const final = this.read();
    final.catch(() => undefined);
    await this.flush(dotStuff(body));
    const dot: FinalDot = { ready: () => this.canTakeDot(), write: () => this.writeFinalDot() };
    for (;;) {
      const decision = await beforeDot(dot);
      if (decision === 'sent') break;
      if (decision === 'withheld' || this.failure) {
        result.withheld = true;
        this.destroy();
        return result;
      }
      await sleep(DOT_RETRY_MS);
    }
    result.final = await final;
    this.used += 1;
    this.dirty = false;
    return result;
  }

  async quit(): Promise<void> {
    if (!this.alive) return;
    try {
      const bye = this.read();
      this.write('QUIT\r\n');
      await Promise.race([bye, new Promise((r) => setTimeout(r, 1000))]);
    } catch {
      // The server hanging up first is a fine end to QUIT.
    }
    this.destroy();
  }

  destroy(): void {
    this.fail(new SmtpTransportError('ECONNCLOSED', 'connection closed'));
    this.socket.destroy();
  }

  private canTakeDot(): boolean {
    return !this.failure && !this.socket.destroyed && this.socket.writableLength === 0;
  }

  /**
   * The final dot, into the kernel within this call. On a plain TCP connection it is one write(2)
   * on the socket's descriptor, so the only code between a committed mark and the dot reaching the
   * kernel is this call; over TLS the record is encrypted and handed to the kernel by the TLS
   * stream, also within this call when the kernel has room.
   */
  private writeFinalDot(): DotWrite {
    if (!this.canTakeDot()) return this.failure || this.socket.destroyed ? 'dead' : 'busy';
    const fd = this.secure
      ? undefined
      : (this.socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
    if (typeof fd !== 'number' || fd < 0) {
      this.socket.write(END_OF_DATA);
      return 'written';
    }
    try {
      const written = writeSync(fd, END_OF_DATA);
      if (written === 0) return 'busy';
      if (written < END_OF_DATA.length) this.socket.write(END_OF_DATA.subarray(written));
      return 'written';
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'EAGAIN' || code === 'EWOULDBLOCK' ? 'busy' : 'dead';
    }
  }

  private async command(line: string): Promise<SmtpAnswer> {
    const answer = this.read();
    this.write(`${line}\r\n`);
    return answer;
  }

  private write(data: string | Buffer): void {
    if (this.failure) return;
    this.socket.write(data);
  }

  /**
   * Writes the pieces (corked, so they leave in one gathered write where the socket can) and
   * waits until the kernel has taken every byte (or the connection failed).
   */
  private flush(pieces: readonly Buffer[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const chunks = joinedWhenSmall(pieces);
    return new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => {
        if (error) reject(this.failure ?? new SmtpTransportError('ECONNRESET', error.message));
        else resolve();
      };
      if (chunks.length <= 1) {
        this.socket.write(chunks[0] ?? Buffer.alloc(0), done);
        return;
      }
      this.socket.cork();
      chunks.forEach((chunk, i) => {
        this.socket.write(chunk, i === chunks.length - 1 ? done : undefined);
      });
      this.socket.uncork();
    });
  }

  /** The next complete reply, in order. */
  private read(): Promise<SmtpAnswer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<SmtpAnswer>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.drain();
      this.socket.setTimeout(this.timeoutMs);
    });
  }

  private attach(socket: net.Socket | tls.TLSSocket): void {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end = this.buffer.indexOf('\n');
      while (end >= 0) {
        this.lines.push(this.buffer.slice(0, end).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(end + 1);
        end = this.buffer.indexOf('\n');
      }
      this.drain();
    });
    socket.on('timeout', () => {
      if (this.waiters.length > 0) {
        this.fail(
          new SmtpTransportError('ETIMEDOUT', `no answer from ${this.host} within ${this.timeoutMs} ms`),
        );
        socket.destroy();
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.fail(new SmtpTransportError(error.code ?? 'ECONNECTION', error.message));
    });
    socket.on('close', () => {
      this.fail(new SmtpTransportError('ECONNRESET', `${this.host} closed the connection`));
    });
  }

  private drain(): void {
    while (this.waiters.length > 0) {
      const last = this.lines.findIndex((line) => !/^\d{3}-/.test(line));
      if (last < 0) return;
      const reply = this.lines.splice(0, last + 1);
      const waiter = this.waiters.shift() as Waiter;
      waiter.resolve({ code: Number(reply[reply.length - 1]?.slice(0, 3)) || 0, text: reply.join('\n') });
    }
    if (this.waiters.length === 0) this.socket.setTimeout(0);
  }

  private fail(error: SmtpTransportError): void {
    if (this.failure) return;
    this.failure = error;
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }
}

/** The server refused the session itself (greeting or HELO): an answer, not a transport failure. */
export class SmtpRefusal extends Error {
  readonly answer: SmtpAnswer;
  constructor(answer: SmtpAnswer) {
    super(answer.text);
    this.name = 'SmtpRefusal';
    this.answer = answer;
  }
}
