import { randomInt, timingSafeEqual } from 'node:crypto';
import type net from 'node:net';
import { addressAllowed } from '../core/sms-gateway-users/sms-gateway-users.service.ts';
import {
  ACTIVE_TEST_RESP_BODY,
  CMPP,
  type CmppFrame,
  CmppFramer,
  type CmppVersion,
  decodeResp,
  encodeFrame,
} from '../sms/carriers/cmpp-codec.ts';
import { cmppContent, decodeText, MSG_FMT, splitUdh } from '../sms/carriers/cmpp-content.ts';
import {
  decodeConnect,
  decodeSubmit,
  encodeConnectResp,
  encodeDeliver,
  encodeStatusReport,
  encodeSubmitResp,
  expectedAuthenticator,
  msgIdFromHex,
  reportTime,
  type SubmitRequest,
} from './cmpp-gateway-codec.ts';
import {
  deliverWindow,
  type GatewayDeps,
  type GatewayLogin,
  type OwedReceipt,
  type SessionTimers,
  wirePhone,
} from './gateway-deps.ts';
import { REFUSALS, refusalOf } from './gateway-results.ts';
import type { ReceiptSink } from './receipt-pump.ts';
import type { SubmitParts } from './submit-parts.ts';

/** A part of a long SUBMIT as kept until the rest arrives. */
export interface CmppPart {
  bytes: Buffer;
  msgFmt: number;
  login: GatewayLogin;
  srcId: string;
  phones: string[];
  wantsReport: boolean;
}

const CONNECT_OK = 0;
const CONNECT_ILLEGAL_SOURCE = 2;
const CONNECT_AUTH_FAILED = 3;
const CONNECT_VERSION = 4;
const CONNECT_OTHER = 5;
const TEXT_FORMATS = new Set<number>([MSG_FMT.ascii, MSG_FMT.ucs2, MSG_FMT.gb]);
const NO_MSG_ID = Buffer.alloc(8);

/**
 * One customer system's connection to Herald's CMPP gateway (the ISMG side, reference §2-§7).
 * It must log in first: CONNECT names a CMPP_USER, comes from an allowed address and carries the
 * MD5 authenticator of the user's secret (Status 3 for an unknown user or a wrong secret alike,
 * 2 for an address not allowed, 4 for a version other than 2.x or 3.0; the connection is then
 * closed). Then: SUBMIT answered with SUBMIT_RESP (a Msg_Id, and the result of the send path or of
 * the user's window and rate); DELIVERs out, status reports and replies, at most the window
 * unanswered, each marked once its DELIVER_RESP came; ACTIVE_TEST and TERMINATE both ways.
 */
export class CmppSession implements ReceiptSink {
  userId = 0;
  private login: GatewayLogin | undefined;
  private version: CmppVersion = '3.0';
  private state: 'new' | 'connecting' | 'ready' | 'closed' = 'new';
  private readonly early: CmppFrame[] = [];
  private readonly framer = new CmppFramer();
  private readonly socket: net.Socket;
  private readonly deps: GatewayDeps;
  private readonly parts: SubmitParts<CmppPart>;
  private readonly timers: SessionTimers;
  private readonly address: string;
  private sequence = 0;
  private readonly inflight = new Map<
    number,
    { rowId: number; at: number; left: { n: number; ok: boolean } }
  >();
  private readonly queue: OwedReceipt[] = [];
  private lastHeard = Date.now();
  private misses = 0;
  private readonly ticker: NodeJS.Timeout;
  private readonly loginTimer: NodeJS.Timeout;

  constructor(socket: net.Socket, deps: GatewayDeps, parts: SubmitParts<CmppPart>, timers: SessionTimers) {
    this.socket = socket;
    this.deps = deps;
    this.parts = parts;
    this.timers = timers;
    this.address = socket.remoteAddress ?? '';
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.onClose());
    this.loginTimer = setTimeout(() => {
      if (this.state !== 'ready') socket.destroy();
    }, timers.loginTimeoutMs);
    this.ticker = setInterval(() => this.tick(), Math.max(50, Math.floor(timers.activeTestMs / 2)));
  }

  room(): number {
    if (this.state !== 'ready' || !this.login) return 0;
    return deliverWindow(this.login) * 2 - this.inflight.size - this.queue.length;
  }

  push(receipt: OwedReceipt): void {
    this.queue.push(receipt);
    this.drain();
  }

  /** TERMINATE, then the socket closed (Herald is stopping). */
  end(): void {
    if (this.state === 'ready') this.write(CMPP.TERMINATE, this.nextSequence());
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 500).unref();
  }

  private onData(chunk: Buffer): void {
    let frames: CmppFrame[];
    try {
      frames = this.framer.push(chunk);
    } catch {
      return void this.socket.destroy();
    }
    for (const frame of frames) {
      this.lastHeard = Date.now();
      this.misses = 0;
      if (this.state === 'connecting') this.early.push(frame);
      else this.onFrame(frame);
    }
  }

  private onFrame(frame: CmppFrame): void {
    if (this.state === 'new') {
      // Nothing but CONNECT before a login (reference §7 checklist): anything else ends it.
      if (frame.commandId !== CMPP.CONNECT) return void this.socket.destroy();
      return void this.connect(frame);
    }
    if (this.state !== 'ready') return;
    switch (frame.commandId) {
      case CMPP.SUBMIT:
        return void this.submit(frame);
      case CMPP.DELIVER_RESP:
        return void this.delivered(frame);
      case CMPP.ACTIVE_TEST:
        return void this.write(CMPP.ACTIVE_TEST_RESP, frame.sequenceId, ACTIVE_TEST_RESP_BODY);
      case CMPP.ACTIVE_TEST_RESP:
        return;
      case CMPP.TERMINATE:
        this.write(CMPP.TERMINATE_RESP, frame.sequenceId);
        return void this.socket.end();
      case CMPP.TERMINATE_RESP:
        return void this.socket.end();
      default:
        this.deps.logger.debug({ commandId: frame.commandId }, 'CMPP gateway: command not served; ignored');
    }
  }

  private async connect(frame: CmppFrame): Promise<void> {
    this.state = 'connecting';
    let request: ReturnType<typeof decodeConnect>;
    try {
      request = decodeConnect(frame.body);
    } catch {
      return void this.socket.destroy();
    }
    const major = request.version >> 4;
    this.version = major === 2 ? '2.0' : '3.0';
    const refuse = (status: number, why: string) => {
      this.deps.logger.info(
        { name: request.sourceAddr, address: this.address, why },
        'CMPP gateway login refused',
      );
      this.write(
        CMPP.CONNECT_RESP,
        frame.sequenceId,
        encodeConnectResp(this.version, status, request.authenticator, undefined),
      );
      this.state = 'closed';
      this.socket.end();
    };
    if (major !== 2 && major !== 3)
      return refuse(CONNECT_VERSION, `version 0x${request.version.toString(16)}`);
    let login: GatewayLogin | null;
    try {
      login = await this.deps.users.login('cmpp', request.sourceAddr);
    } catch (error) {
      this.deps.logger.error({ err: error }, 'CMPP gateway: login lookup failed');
      return refuse(CONNECT_OTHER, 'lookup failed');
    }
    if (!login) return refuse(CONNECT_AUTH_FAILED, 'unknown user');
    if (!addressAllowed(login, this.address)) return refuse(CONNECT_ILLEGAL_SOURCE, 'address not allowed');
    const expected = expectedAuthenticator(request.sourceAddr, login.secret, request.timestamp);
    if (request.authenticator.length !== 16 || !timingSafeEqual(expected, request.authenticator))
      return refuse(CONNECT_AUTH_FAILED, 'wrong authenticator');
    if (this.socket.destroyed) return;
    this.write(
      CMPP.CONNECT_RESP,
      frame.sequenceId,
      encodeConnectResp(this.version, CONNECT_OK, request.authenticator, login.secret),
    );
    this.login = login;
    this.userId = login.id;
    this.state = 'ready';
    clearTimeout(this.loginTimer);
    this.deps.logger.info(
      { name: login.name, address: this.address, version: this.version },
      'CMPP gateway login',
    );
    this.deps.pump.attach(this);
    for (const early of this.early.splice(0)) this.onFrame(early);
  }

  private submit(frame: CmppFrame): void {
    const login = this.login as GatewayLogin;
    let submit: SubmitRequest;
    try {
      submit = decodeSubmit(this.version, frame.body);
    } catch {
      return void this.answer(frame.sequenceId, NO_MSG_ID, REFUSALS.format.cmpp);
    }
    if (submit.destinations.length === 0) return void this.answer(frame.sequenceId, NO_MSG_ID, 13);
    const limited = this.deps.limits.take(login);
    if (limited) return void this.answer(frame.sequenceId, NO_MSG_ID, REFUSALS[limited].cmpp);
    const ids = this.deps.msgIds.next(submit.destinations.length);
    const msgId = msgIdFromHex(ids[0] as string);
    const finish = (result: number) => {
      this.deps.limits.done(login.id);
      this.answer(frame.sequenceId, msgId, result);
    };
    if (!TEXT_FORMATS.has(submit.msgFmt)) return void finish(REFUSALS.format.cmpp);
    const { body, concat } = splitUdh(submit.content, submit.tpUdhi);
    const total = concat?.total ?? submit.pkTotal;
    const part: CmppPart = {
      bytes: body,
      msgFmt: submit.msgFmt,
      login,
      srcId: submit.srcId,
      phones: submit.destinations,
      wantsReport: submit.registeredDelivery === 1,
    };
    if (total <= 1) {
      void this.send(
        part,
        ids.map((id) => [id]),
        ids,
      ).then(finish);
      return;
    }
    const ref = concat ? String(concat.ref) : 'pk';
    const key = `${login.id}|${submit.srcId}|${submit.destinations.join(',')}|${ref}|${total}`;
    const joined = this.parts.add(key, total, {
      seq: concat?.seq ?? submit.pkNumber,
      body: part,
      msgIds: ids,
    });
    if (!joined) return void finish(0);
    const whole: CmppPart = { ...part, bytes: Buffer.concat(joined.bodies.map((b) => b.bytes)) };
    void this.send(whole, joined.msgIds, ids).then(finish);
  }

  /** The joined text through the core; answers the CMPP result. */
  private async send(part: CmppPart, msgIds: string[][], lastIds: string[]): Promise<number> {
    try {
      await this.deps.gateway.submit({
        login: part.login,
        phones: part.phones,
        text: decodeText(part.bytes, part.msgFmt),
        srcId: part.srcId,
        wantsReport: part.wantsReport,
        msgIds,
      });
      return 0;
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === REFUSALS.unavailable)
        this.deps.logger.error({ err: error }, 'CMPP gateway submit failed');
      // Parts answered before the verdict are owed a report that says the text was not sent.
      const earlier = msgIds.flatMap((ids, i) =>
        ids
          .filter((id) => !lastIds.includes(id))
          .map((id) => ({ msgId: id, phone: part.phones[i] as string })),
      );
      if (earlier.length > 0 && part.wantsReport)
        await this.deps.gateway.owe(part.login, earlier, part.srcId, 'REJECTD').catch(() => undefined);
      return refusal.cmpp;
    }
  }

  private answer(sequenceId: number, msgId: Buffer, result: number): void {
    this.write(CMPP.SUBMIT_RESP, sequenceId, encodeSubmitResp(this.version, msgId, result));
  }

  private drain(): void {
    const login = this.login;
    if (!login || this.state !== 'ready') return;
    while (this.queue.length > 0 && this.inflight.size < deliverWindow(login)) {
      this.deliver(this.queue.shift() as OwedReceipt);
    }
  }

  private deliver(receipt: OwedReceipt): void {
    const at = Date.now();
    const [deliverId] = this.deps.msgIds.next();
    const msgId = msgIdFromHex(deliverId as string);
    const phone = wirePhone(receipt.phone);
    if (receipt.kind === 'report') {
      const content = encodeStatusReport(this.version, {
        msgId: msgIdFromHex(receipt.msgId),
        stat: receipt.stat,
        submitTime: reportTime(receipt.submittedAt),
        doneTime: reportTime(receipt.doneAt),
        destTerminalId: phone,
        smscSequence: receipt.id >>> 0,
      });
      const sequence = this.nextSequence();
      this.inflight.set(sequence, { rowId: receipt.id, at, left: { n: 1, ok: true } });
      const body = encodeDeliver(this.version, {
        msgId,
        destId: receipt.srcId,
        serviceId: '',
        tpUdhi: 0,
        msgFmt: 0,
        srcTerminalId: phone,
        registeredDelivery: 1,
        content,
      });
      return void this.write(CMPP.DELIVER, sequence, body);
    }
    const { msgFmt, parts } = cmppContent(receipt.content, randomInt(256));
    const left = { n: parts.length, ok: true };
    for (const content of parts) {
      const sequence = this.nextSequence();
      this.inflight.set(sequence, { rowId: receipt.id, at, left });
      const body = encodeDeliver(this.version, {
        msgId,
        destId: receipt.srcId,
        serviceId: '',
        tpUdhi: parts.length > 1 ? 1 : 0,
        msgFmt,
        srcTerminalId: phone,
        registeredDelivery: 0,
        content,
      });
      this.write(CMPP.DELIVER, sequence, body);
    }
  }

  /** DELIVER_RESP: 0 answered; 8 (too fast) owed again; any other the customer refused it: not resent. */
  private delivered(frame: CmppFrame): void {
    const entry = this.inflight.get(frame.sequenceId);
    if (!entry) return;
    this.inflight.delete(frame.sequenceId);
    let result = 0;
    try {
      result = decodeResp(this.version, frame.body).result;
    } catch {}
    if (result === 8) entry.left.ok = false;
    entry.left.n -= 1;
    if (entry.left.n === 0) this.deps.pump.answered(entry.rowId, entry.left.ok);
    this.drain();
    if (this.queue.length === 0) this.deps.pump.wake();
  }

  private tick(): void {
    const now = Date.now();
    for (const [sequence, entry] of this.inflight) {
      if (now - entry.at > this.timers.responseTimeoutMs) this.inflight.delete(sequence);
    }
    this.drain();
    if (this.state !== 'ready' || now - this.lastHeard < this.timers.activeTestMs) return;
    this.misses += 1;
    if (this.misses > this.timers.activeTestMisses) return void this.socket.destroy();
    this.lastHeard = now;
    this.write(CMPP.ACTIVE_TEST, this.nextSequence());
  }

  private nextSequence(): number {
    this.sequence = this.sequence >= 0x7fffffff ? 1 : this.sequence + 1;
    return this.sequence;
  }

  private write(commandId: number, sequenceId: number, body?: Buffer): void {
    if (this.socket.writable) this.socket.write(encodeFrame(commandId, sequenceId, body));
  }

  private onClose(): void {
    clearTimeout(this.loginTimer);
    clearInterval(this.ticker);
    const wasReady = this.state === 'ready';
    this.state = 'closed';
    if (!wasReady) return;
    const held = [
      ...new Set([...[...this.inflight.values()].map((e) => e.rowId), ...this.queue.map((r) => r.id)]),
    ];
    this.inflight.clear();
    this.queue.length = 0;
    this.deps.pump.detach(this, held);
  }
}
