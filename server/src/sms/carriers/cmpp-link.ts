import net from 'node:net';
import type { Logger } from 'pino';
import {
  ACTIVE_TEST_RESP_BODY,
  CMPP,
  type CmppFrame,
  CmppFramer,
  type CmppVersion,
  decodeConnectResp,
  encodeConnect,
  encodeFrame,
} from './cmpp-codec.ts';
import { describeConnectStatus } from './cmpp-content.ts';

/**
 * One TCP connection to a CMPP gateway and its login: CONNECT with the MD5 authenticator, answers
 * matched to their requests by Sequence_Id, the gateway's ACTIVE_TEST and TERMINATE answered,
 * and our own ACTIVE_TEST after `activeTestMs` of silence; `activeTestMisses` unanswered in a row
 * end the connection. A link is used once: the connector opens a new one after `onClose`.
 * DELIVERs go to the connector, which answers them.
 */
export interface CmppLinkOptions {
  host: string;
  port: number;
  version: CmppVersion;
  spId: string;
  secret: string;
  logger: Logger;
  responseTimeoutMs: number;
  activeTestMs: number;
  activeTestMisses: number;
}

export interface CmppLinkEvents {
  ready(link: CmppLink): void;
  deliver(link: CmppLink, frame: CmppFrame): void;
  /** `why` says what went wrong when the link never got ready or broke. */
  closed(link: CmppLink, why: string | undefined): void;
}

export class CmppLink {
  /** The version the packets use: the one asked for, or 2.0 when the gateway only speaks 2.x. */
  version: CmppVersion;
  ready = false;
  private readonly options: CmppLinkOptions;
  private readonly events: CmppLinkEvents;
  private readonly socket: net.Socket;
  private readonly framer = new CmppFramer();
  private readonly pending = new Map<number, (answer: CmppFrame | Error) => void>();
  private sequence = 0;
  private lastHeard = Date.now();
  private misses = 0;
  private testing = false;
  private keepalive: NodeJS.Timeout | undefined;
  private why: string | undefined;

  constructor(options: CmppLinkOptions, events: CmppLinkEvents) {
    this.options = options;
    this.events = events;
    this.version = options.version;
    const socket = net.connect({ host: options.host, port: options.port });
    this.socket = socket;
    socket.setNoDelay(true);
    // A gateway that neither accepts nor refuses the connection must not hold the submits forever.
    socket.setTimeout(options.responseTimeoutMs, () => {
      if (this.ready) return;
      this.why ??= 'no answer from the gateway';
      socket.destroy();
    });
    socket.on('connect', () => void this.login());
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error: Error) => {
      this.why ??= error.message;
      options.logger.warn({ err: error.message }, 'CMPP connection error');
    });
    socket.on('close', () => this.onClose());
  }

  /** Sends a request and resolves with its answer; rejects on timeout or when the link closes. */
  request(commandId: number, body?: Buffer, timeoutMs = this.options.responseTimeoutMs): Promise<CmppFrame> {
    this.sequence = this.sequence >= 0xffffffff ? 1 : this.sequence + 1;
    const sequenceId = this.sequence;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(sequenceId);
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(sequenceId, (answer) => {
        clearTimeout(timer);
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      });
      if (!this.write(commandId, sequenceId, body)) {
        this.pending.delete(sequenceId);
        clearTimeout(timer);
        reject(new Error('not connected'));
      }
    });
  }

  write(commandId: number, sequenceId: number, body?: Buffer): boolean {
    if (!this.socket.writable) return false;
    this.socket.write(encodeFrame(commandId, sequenceId, body));
    return true;
  }

  /** TERMINATE when logged in, then the socket closed; resolves once it is. */
  async end(): Promise<void> {
    if (this.ready) await this.request(CMPP.TERMINATE, undefined, 2000).catch(() => undefined);
    await new Promise<void>((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.destroy();
    });
  }

  /** Gives the connection up at once (unanswered, unreadable). */
  destroy(why: string): void {
    this.why ??= why;
    this.ready = false;
    this.socket.destroy();
  }

  private async login(): Promise<void> {
    const { spId, secret, version, logger } = this.options;
    let answer: { status: number; version: number };
    try {
      const frame = await this.request(CMPP.CONNECT, encodeConnect(spId, secret, version, new Date()));
      answer = decodeConnectResp(frame.body);
    } catch (error) {
      return void this.destroy(`CONNECT: ${(error as Error).message}`);
    }
    if (answer.status !== 0) {
      logger.error({ spId }, `CMPP login refused: ${describeConnectStatus(answer.status)}`);
      return void this.destroy(`the gateway refused CONNECT: ${describeConnectStatus(answer.status)}`);
    }
    if (version === '3.0' && answer.version >> 4 === 2) this.version = '2.0';
    this.ready = true;
    this.socket.setTimeout(0);
    const idleMs = this.options.activeTestMs;
    this.keepalive = setInterval(() => this.keepAlive(), Math.max(10, Math.floor(idleMs / 2)));
    logger.info({ version: this.version }, 'CMPP session logged in');
    this.events.ready(this);
  }

  private keepAlive(): void {
    if (this.testing || Date.now() - this.lastHeard < this.options.activeTestMs) return;
    this.testing = true;
    this.request(CMPP.ACTIVE_TEST)
      .catch(() => {
        this.misses += 1;
        this.options.logger.warn({ misses: this.misses }, 'CMPP ACTIVE_TEST unanswered');
        if (this.misses >= this.options.activeTestMisses) this.destroy('ACTIVE_TEST unanswered');
      })
      .finally(() => {
        this.testing = false;
      });
  }

  private onData(chunk: Buffer): void {
    let frames: CmppFrame[];
    try {
      frames = this.framer.push(chunk);
    } catch (error) {
      return void this.destroy((error as Error).message);
    }
    for (const frame of frames) {
      this.lastHeard = Date.now();
      this.misses = 0;
      if (frame.commandId & 0x80000000) {
        const settle = this.pending.get(frame.sequenceId);
        this.pending.delete(frame.sequenceId);
        settle?.(frame);
      } else if (frame.commandId === CMPP.ACTIVE_TEST) {
        this.write(CMPP.ACTIVE_TEST_RESP, frame.sequenceId, ACTIVE_TEST_RESP_BODY);
      } else if (frame.commandId === CMPP.DELIVER) {
        this.events.deliver(this, frame);
      } else if (frame.commandId === CMPP.TERMINATE) {
        this.options.logger.info('CMPP gateway ended the session');
        this.ready = false;
        this.why ??= 'the gateway ended the session';
        this.write(CMPP.TERMINATE_RESP, frame.sequenceId);
        this.socket.end();
      } else {
        this.options.logger.warn({ commandId: frame.commandId }, 'CMPP request not understood; ignored');
      }
    }
  }

  private onClose(): void {
    clearInterval(this.keepalive);
    this.ready = false;
    const lost = new Error('connection closed');
    for (const settle of this.pending.values()) settle(lost);
    this.pending.clear();
    this.events.closed(this, this.why);
  }
}
