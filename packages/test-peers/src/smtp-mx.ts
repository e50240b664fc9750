/**
 * A recipient MX on loopback: the mail server at the far end of an SMTP delivery. Built on
 * `smtp-server` so Herald's real SMTP client meets a real ESMTP dialogue (EHLO, STARTTLS with the
 * fixture certificate, SIZE, PIPELINING). Behaviour is scripted per recipient address rather than
 * per connection because that is how remote MXs differ in practice (one mailbox unknown, one domain
 * greylisting). `messages` holds only mail the MX accepted with 250; `connections` counts accepted
 * TCP connections so tests can check pooling and reuse. `close()` destroys live sockets at once
 * instead of waiting for clients to QUIT, so a test never hangs on a pooled client.
 */
import type { Socket } from 'node:net';
import type { SMTPServerAddress, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { SMTPServer } from 'smtp-server';
import { decodeEncodedWords, type MailHeaders, parseHeaders } from './mail-headers.ts';
import { testTls } from './tls-fixture.ts';
import { createWaiter } from './waiter.ts';

export interface SmtpReply {
  /** SMTP reply code, e.g. 550 or 451. Codes below 400 mean "accept as usual". */
  code: number;
  /** Reply text, conventionally starting with an enhanced status code: '5.1.1 user unknown'. */
  message: string;
}

/** What the MX does for one recipient. Fields combine: `{ delayMs: 200, rcpt: {...} }`. */
export interface SmtpBehaviour {
  /** Reply at RCPT TO instead of 250. */
  rcpt?: SmtpReply;
  /** Reply at the end of DATA instead of 250 (the message is then not recorded). */
  data?: SmtpReply;
  /** Destroy the socket instead of answering RCPT TO or the end of DATA. */
  drop?: 'rcpt' | 'data';
  /** Wait this long before answering RCPT TO. */
  delayMs?: number;
  /** Wait this long before answering the end of DATA. */
  dataDelayMs?: number;
  /**
   * A slow reader: pause this long after each chunk of DATA, so the sender's socket buffers fill
   * and its writes wait (decided by the first recipient's script).
   */
  readDelayMs?: number;
}

export interface SmtpMxOptions {
  host?: string;
  port?: number;
  /** Offer STARTTLS with the fixture certificate (CN=mx.test). Default true. */
  starttls?: boolean;
  /** Hostname used in the greeting and EHLO reply. Default 'mx.test'. */
  name?: string;
  /** Text appended to the 220 greeting. */
  banner?: string;
  /** Maximum message size in bytes: advertised with SIZE, bigger messages get 552. */
  size?: number;
  /** Offer 8BITMIME (RFC 6152) in the EHLO reply. Default true; false makes a 7-bit MX. */
  eightBitMime?: boolean;
}

export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  /** The message exactly as received in DATA (dot-unstuffed), decoded as UTF-8. */
  raw: string;
  /** The same bytes undecoded, for checks on the octets themselves (8-bit data, line lengths). */
  bytes: Buffer;
  /** The MAIL FROM parameters, upper-cased names: `{ BODY: '8BITMIME', SIZE: '1234' }`. */
  mailParams: Record<string, string>;
  headers: MailHeaders;
  /** Subject with RFC 2047 encoded words decoded; undefined when absent. */
  subject: string | undefined;
  heloName: string;
  /** True when the transaction ran over STARTTLS. */
  secure: boolean;
  remoteAddress: string;
  /** When the transaction's first RCPT TO arrived (a sender's pacing shows here, not in receivedAt). */
  startedAt: Date;
  receivedAt: Date;
}

export interface SmtpMx {
  readonly host: string;
  readonly port: number;
  /** Accepted messages, oldest first. The same array for the life of the peer. */
  readonly messages: ReceivedMail[];
  /** TCP connections accepted since start (or since `clear()`). */
  readonly connections: number;
  /** Script one recipient address (case-insensitive). Replaces an earlier script for it. */
  script(address: string, behaviour: SmtpBehaviour): void;
  /** Behaviour for recipients without their own script; `null` restores plain acceptance. */
  scriptDefault(behaviour: SmtpBehaviour | null): void;
  unscript(address: string): void;
  /** Resolves once at least `count` messages were accepted (default timeout 5000 ms). */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Forgets messages, scripts and the connection count. */
  clear(): void;
  close(): Promise<void>;
}

const sleep = (ms: number | undefined): Promise<void> =>
  ms && ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

const replyError = (reply: SmtpReply): Error =>
  Object.assign(new Error(reply.message), { responseCode: reply.code });

export async function startSmtpMx(options: SmtpMxOptions = {}): Promise<SmtpMx> {
  const host = options.host ?? '127.0.0.1';
  const starttls = options.starttls ?? true;
  const messages: ReceivedMail[] = [];
  const scripts = new Map<string, SmtpBehaviour>();
  let fallback: SmtpBehaviour | null = null;
  let connections = 0;
  let closed = false;
  const sockets = new Map<number, Socket>();
  const waiter = createWaiter(() => messages, 'smtp-mx');

  const behaviourFor = (address: string): SmtpBehaviour | null =>
    scripts.get(address.toLowerCase()) ?? fallback;

  // Raw sockets are keyed by client port (unique on loopback) so a handler can drop "its" socket;
  // destroying the raw socket also tears down a STARTTLS layer running on top of it.
  const drop = (session: SMTPServerSession): void => {
    sockets.get(session.remotePort)?.destroy();
  };

  const transactionStarts = new Map<string, Date>();
  const onRcptTo = (address: SMTPServerAddress, session: SMTPServerSession, done: (err?: Error) => void) => {
    if (!transactionStarts.has(session.id)) transactionStarts.set(session.id, new Date());
    const behaviour = behaviourFor(address.address);
    void sleep(behaviour?.delayMs).then(() => {
      if (behaviour?.drop === 'rcpt') return drop(session);
      if (behaviour?.rcpt && behaviour.rcpt.code >= 400) return done(replyError(behaviour.rcpt));
      done();
    });
  };

  const onData = (
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    done: (err?: Error | null, msg?: string) => void,
  ) => {
    const chunks: Buffer[] = [];
    const first = session.envelope.rcptTo[0]?.address.toLowerCase();
    const readDelayMs =
      (first === undefined ? undefined : scripts.get(first)?.readDelayMs) ?? fallback?.readDelayMs;
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (readDelayMs) {
        stream.pause();
        setTimeout(() => stream.resume(), readDelayMs);
      }
    });
    stream.on('end', () => {
      const startedAt = transactionStarts.get(session.id) ?? new Date();
      transactionStarts.delete(session.id);
      const rcptTo = session.envelope.rcptTo.map((r) => r.address);
      // One DATA reply covers every recipient: the first recipient whose script has a DATA-stage
      // instruction decides, otherwise the default behaviour.
      const scripted = rcptTo
        .map((a) => scripts.get(a.toLowerCase()))
        .find((b) => b?.data || b?.drop === 'data' || b?.dataDelayMs);
      const behaviour = scripted ?? fallback;
      void sleep(behaviour?.dataDelayMs).then(() => {
        if (behaviour?.drop === 'data') return drop(session);
        if (stream.sizeExceeded) return done(replyError({ code: 552, message: '5.3.4 message too big' }));
        if (behaviour?.data && behaviour.data.code >= 400) return done(replyError(behaviour.data));
        const bytes = Buffer.concat(chunks);
        const raw = bytes.toString('utf8');
        const headers = parseHeaders(raw);
        const subject = headers.subject?.[0];
        const mailFrom = session.envelope.mailFrom;
        const args = (mailFrom ? mailFrom.args : false) || {};
        messages.push({
          mailFrom: mailFrom ? mailFrom.address : '',
          rcptTo,
          raw,
          bytes,
          mailParams: Object.fromEntries(
            Object.entries(args).map(([name, value]) => [name.toUpperCase(), String(value)]),
          ),
          headers,
          subject: subject === undefined ? undefined : decodeEncodedWords(subject),
          heloName: session.hostNameAppearsAs || '',
          secure: session.secure,
          remoteAddress: session.remoteAddress,
          startedAt,
          receivedAt: new Date(),
        });
        done(null, `2.0.0 OK queued as ${messages.length}`);
        waiter.notify();
      });
    });
  };

  const tls = starttls ? testTls() : undefined;
  const server = new SMTPServer({
    name: options.name ?? 'mx.test',
    banner: options.banner,
    size: options.size,
    rejectOversized: options.size !== undefined,
    key: tls?.key,
    cert: tls?.cert,
    disabledCommands: starttls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    authOptional: true,
    disableReverseLookup: true,
    hide8BITMIME: options.eightBitMime === false,
    logger: false,
    onRcptTo,
    onData,
  });
  server.on('error', () => {
    // Client-side resets (including our own drops) surface here; they are expected in tests.
  });
  server.server.on('connection', (socket: Socket) => {
    connections += 1;
    const port = socket.remotePort ?? 0;
    sockets.set(port, socket);
    socket.on('close', () => {
      if (sockets.get(port) === socket) sockets.delete(port);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    host,
    port,
    messages,
    get connections() {
      return connections;
    },
    script(address, behaviour) {
      scripts.set(address.toLowerCase(), behaviour);
    },
    scriptDefault(behaviour) {
      fallback = behaviour;
    },
    unscript(address) {
      scripts.delete(address.toLowerCase());
    },
    waitForMessages(count, timeoutMs = 5000) {
      return waiter.waitFor(count, timeoutMs);
    },
    clear() {
      messages.length = 0;
      scripts.clear();
      fallback = null;
      connections = 0;
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      waiter.cancelAll('peer closed');
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets.values()) socket.destroy();
      });
    },
  };
}
