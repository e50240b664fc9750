/// <reference path="../../../types/smpp.d.ts" />
import smpp, { type Pdu, type Session } from 'smpp';
import { addressAllowed } from '../core/sms-gateway-users/sms-gateway-users.service.ts';
import { sameSecret } from '../lib/same-secret.ts';
import {
  deliverWindow,
  type GatewayDeps,
  type GatewayLogin,
  type OwedReceipt,
  type SessionTimers,
  wirePhone,
} from './gateway-deps.ts';
import { REFUSALS, refusalOf, SMPP_STATUS } from './gateway-results.ts';
import type { ReceiptSink } from './receipt-pump.ts';
import type { SubmitParts } from './submit-parts.ts';

/** A part of a long submit_sm as kept until the rest arrives. */
export interface SmppPart {
  text: string;
  login: GatewayLogin;
  srcId: string;
  phone: string;
  wantsReport: boolean;
}

const BIND_MODES: Record<string, 'transceiver' | 'transmitter' | 'receiver'> = {
  bind_transceiver: 'transceiver',
  bind_transmitter: 'transmitter',
  bind_receiver: 'receiver',
};
const ESM_DELIVERY_RECEIPT = 0x04;
/** SMPP §5.3.2.35 message_state by the receipt's stat. */
const MESSAGE_STATES: Record<string, number> = {
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8,
};

/**
 * One customer system's SMPP 3.4 session with Herald's gateway, on the `smpp` package's server.
 * bind_transceiver, bind_transmitter or bind_receiver with a system_id and its password (from an
 * allowed address: else ESME_RBINDFAIL; an unknown system_id or a wrong password is
 * ESME_RINVPASWD; the session then closes). submit_sm is answered with a message_id (the same
 * 16 hex digits a CMPP Msg_Id would be) or the status of the refusal; a receipt comes back as a
 * deliver_sm with esm_class 0x04, the Appendix B text (`id:… stat:DELIVRD …`) and the
 * receipted_message_id and message_state TLVs, to a transceiver or receiver of the same user;
 * replies as plain deliver_sm. enquire_link both ways; unbind answered and the session closed.
 */
export class SmppSession implements ReceiptSink {
  userId = 0;
  private login: GatewayLogin | undefined;
  private mode: 'transceiver' | 'transmitter' | 'receiver' | undefined;
  private readonly session: Session;
  private readonly deps: GatewayDeps;
  private readonly parts: SubmitParts<SmppPart>;
  private readonly timers: SessionTimers;
  private readonly address: string;
  private readonly inflight = new Map<number, { rowId: number; at: number }>();
  private readonly queue: OwedReceipt[] = [];
  private lastHeard = Date.now();
  private misses = 0;
  private closed = false;
  private readonly ticker: NodeJS.Timeout;
  private readonly loginTimer: NodeJS.Timeout;

  constructor(session: Session, deps: GatewayDeps, parts: SubmitParts<SmppPart>, timers: SessionTimers) {
    this.session = session;
    this.deps = deps;
    this.parts = parts;
    this.timers = timers;
    this.address = session.socket.remoteAddress ?? '';
    session.socket.setNoDelay(true);
    session.on('pdu', (pdu: Pdu) => this.onPdu(pdu));
    session.on('error', () => session.destroy());
    session.on('close', () => this.onClose());
    this.loginTimer = setTimeout(() => {
      if (!this.login) session.destroy();
    }, timers.loginTimeoutMs);
    this.ticker = setInterval(() => this.tick(), Math.max(50, Math.floor(timers.activeTestMs / 2)));
  }

  room(): number {
    if (!this.login || this.closed || this.mode === 'transmitter') return 0;
    return deliverWindow(this.login) * 2 - this.inflight.size - this.queue.length;
  }

  push(receipt: OwedReceipt): void {
    this.queue.push(receipt);
    this.drain();
  }

  /** unbind, then the socket closed (Herald is stopping). */
  end(): void {
    if (this.login) this.session.unbind();
    this.session.close();
    setTimeout(() => this.session.destroy(), 500).unref();
  }

  private onPdu(pdu: Pdu): void {
    this.lastHeard = Date.now();
    this.misses = 0;
    if (pdu.isResponse()) return;
    const mode = BIND_MODES[pdu.command];
    if (mode) return void this.bind(pdu, mode);
    if (pdu.command === 'enquire_link') return void this.session.send(pdu.response());
    if (pdu.command === 'unbind') {
      this.session.send(pdu.response(), () => this.session.close());
      return;
    }
    if (!this.login)
      return void this.session.send(pdu.response({ command_status: SMPP_STATUS.ESME_RINVBNDSTS }));
    if (pdu.command === 'submit_sm') return void this.submit(pdu);
    const nack = { command_status: SMPP_STATUS.ESME_RINVCMDID, sequence_number: pdu.sequence_number };
    this.session.send(new smpp.PDU('generic_nack', nack));
  }

  private async bind(pdu: Pdu, mode: 'transceiver' | 'transmitter' | 'receiver'): Promise<void> {
    if (this.login) return void this.session.send(pdu.response({ command_status: SMPP_STATUS.ESME_RALYBND }));
    const name = String(pdu.system_id ?? '');
    const password = String(pdu.password ?? '');
    // PDUs pipelined behind the bind wait until it is decided (resumed once login is set).
    this.session.pause();
    const refuse = (status: number, why: string) => {
      this.deps.logger.info({ name, address: this.address, why }, 'SMPP gateway bind refused');
      this.session.send(pdu.response({ command_status: status }), () => this.session.close());
      this.session.resume();
    };
    let login: GatewayLogin | null;
    try {
      login = await this.deps.users.login('smpp', name);
    } catch (error) {
      this.deps.logger.error({ err: error }, 'SMPP gateway: login lookup failed');
      return refuse(SMPP_STATUS.ESME_RSYSERR, 'lookup failed');
    }
    if (!login) return refuse(SMPP_STATUS.ESME_RINVPASWD, 'unknown system_id');
    if (!addressAllowed(login, this.address))
      return refuse(SMPP_STATUS.ESME_RBINDFAIL, 'address not allowed');
    if (!sameSecret(password, login.secret)) return refuse(SMPP_STATUS.ESME_RINVPASWD, 'wrong password');
    this.login = login;
    this.userId = login.id;
    this.mode = mode;
    clearTimeout(this.loginTimer);
    this.session.send(pdu.response({ system_id: 'Herald' }));
    this.deps.logger.info({ name, address: this.address, mode }, 'SMPP gateway bind');
    if (mode !== 'transmitter') this.deps.pump.attach(this);
    this.session.resume();
  }

  private submit(pdu: Pdu): void {
    const login = this.login as GatewayLogin;
    if (this.mode === 'receiver')
      return void this.session.send(pdu.response({ command_status: SMPP_STATUS.ESME_RINVBNDSTS }));
    const limited = this.deps.limits.take(login);
    if (limited) return void this.session.send(pdu.response({ command_status: REFUSALS[limited].smpp }));
    const [id] = this.deps.msgIds.next() as [string];
    const finish = (status: number) => {
      this.deps.limits.done(login.id);
      this.session.send(pdu.response(status === 0 ? { message_id: id } : { command_status: status }));
    };
    let message = readMessage(pdu.short_message);
    if (message.text === '' && pdu.message_payload !== undefined) message = readMessage(pdu.message_payload);
    const part: SmppPart = {
      text: message.text,
      login,
      srcId: String(pdu.source_addr ?? ''),
      phone: String(pdu.destination_addr ?? ''),
      wantsReport: (Number(pdu.registered_delivery ?? 0) & 0x03) !== 0,
    };
    const sarTotal = Number(pdu.sar_total_segments ?? 0);
    const concat =
      message.concat ??
      (sarTotal > 1
        ? { ref: Number(pdu.sar_msg_ref_num ?? 0), total: sarTotal, seq: Number(pdu.sar_segment_seqnum ?? 0) }
        : undefined);
    if (!concat || concat.total <= 1) {
      void this.send(part, [[id]], [id]).then(finish);
      return;
    }
    const key = `${login.id}|${part.srcId}|${part.phone}|${concat.ref}|${concat.total}`;
    const joined = this.parts.add(key, concat.total, { seq: concat.seq, body: part, msgIds: [id] });
    if (!joined) return void finish(0);
    void this.send({ ...part, text: joined.bodies.map((b) => b.text).join('') }, joined.msgIds, [id]).then(
      finish,
    );
  }

  private async send(part: SmppPart, msgIds: string[][], lastIds: string[]): Promise<number> {
    try {
      await this.deps.gateway.submit({
        login: part.login,
        phones: [part.phone],
        text: part.text,
        srcId: part.srcId,
        wantsReport: part.wantsReport,
        msgIds,
      });
      return SMPP_STATUS.ESME_ROK;
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === REFUSALS.unavailable)
        this.deps.logger.error({ err: error }, 'SMPP gateway submit failed');
      const earlier = (msgIds[0] ?? []).filter((id) => !lastIds.includes(id));
      if (earlier.length > 0 && part.wantsReport) {
        const owed = earlier.map((msgId) => ({ msgId, phone: part.phone }));
        await this.deps.gateway.owe(part.login, owed, part.srcId, 'REJECTD').catch(() => undefined);
      }
      return refusal.smpp;
    }
  }

  private drain(): void {
    const login = this.login;
    if (!login || this.closed) return;
    while (this.queue.length > 0 && this.inflight.size < deliverWindow(login)) {
      this.deliver(this.queue.shift() as OwedReceipt);
    }
  }

  private deliver(receipt: OwedReceipt): void {
    const phone = wirePhone(receipt.phone);
    const options: Record<string, unknown> =
      receipt.kind === 'report'
        ? {
            source_addr: phone,
            destination_addr: receipt.srcId,
            esm_class: ESM_DELIVERY_RECEIPT,
            data_coding: 1,
            short_message: receiptText(receipt),
            receipted_message_id: receipt.msgId,
            message_state: MESSAGE_STATES[receipt.stat] ?? MESSAGE_STATES.UNDELIV,
          }
        : moOptions(phone, receipt);
    const pdu = new smpp.PDU('deliver_sm', options);
    const sent = this.session.send(pdu, (resp: Pdu) => {
      const entry = this.inflight.get(pdu.sequence_number);
      if (!entry) return;
      this.inflight.delete(pdu.sequence_number);
      const again =
        resp.command_status === SMPP_STATUS.ESME_RTHROTTLED ||
        resp.command_status === SMPP_STATUS.ESME_RMSGQFUL;
      this.deps.pump.answered(entry.rowId, !again);
      this.drain();
      if (this.queue.length === 0) this.deps.pump.wake();
    });
    if (sent) this.inflight.set(pdu.sequence_number, { rowId: receipt.id, at: Date.now() });
    else this.queue.unshift(receipt);
  }

  private tick(): void {
    const now = Date.now();
    for (const [sequence, entry] of this.inflight) {
      if (now - entry.at > this.timers.responseTimeoutMs) this.inflight.delete(sequence);
    }
    this.drain();
    if (!this.login || now - this.lastHeard < this.timers.activeTestMs) return;
    this.misses += 1;
    if (this.misses > this.timers.activeTestMisses) return void this.session.destroy();
    this.lastHeard = now;
    this.session.enquire_link();
  }

  private onClose(): void {
    clearTimeout(this.loginTimer);
    clearInterval(this.ticker);
    if (this.closed) return;
    this.closed = true;
    if (!this.login || this.mode === 'transmitter') return;
    const held = [
      ...new Set([...[...this.inflight.values()].map((e) => e.rowId), ...this.queue.map((r) => r.id)]),
    ];
    this.inflight.clear();
    this.queue.length = 0;
    this.deps.pump.detach(this, held);
  }
}

/** The text and any concatenation UDH of a decoded short_message or message_payload. */
function readMessage(value: unknown): {
  text: string;
  concat: { ref: number; total: number; seq: number } | undefined;
} {
  if (typeof value === 'string') return { text: value, concat: undefined };
  if (Buffer.isBuffer(value)) return { text: value.toString('latin1'), concat: undefined };
  if (!value || typeof value !== 'object' || !('message' in value)) return { text: '', concat: undefined };
  const message = (value as { message: unknown }).message;
  const text =
    typeof message === 'string' ? message : Buffer.isBuffer(message) ? message.toString('latin1') : '';
  const udh = (value as { udh?: unknown }).udh;
  let concat: { ref: number; total: number; seq: number } | undefined;
  if (Array.isArray(udh)) {
    for (const ie of udh as Buffer[]) {
      if (ie[0] === 0x00 && ie[1] === 3) concat = { ref: ie[2] ?? 0, total: ie[3] ?? 0, seq: ie[4] ?? 0 };
      if (ie[0] === 0x08 && ie[1] === 4)
        concat = { ref: ie.readUInt16BE(2), total: ie[4] ?? 0, seq: ie[5] ?? 0 };
    }
  }
  return { text, concat };
}

/** SMPP Appendix B: `id:… sub:001 dlvrd:001 submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:… err:… text:`. */
export function receiptText(receipt: Pick<OwedReceipt, 'msgId' | 'stat' | 'submittedAt' | 'doneAt'>): string {
  const delivered = receipt.stat === 'DELIVRD';
  return (
    `id:${receipt.msgId} sub:001 dlvrd:${delivered ? '001' : '000'} ` +
    `submit date:${smscTime(receipt.submittedAt)} done date:${smscTime(receipt.doneAt)} ` +
    `stat:${receipt.stat} err:${delivered ? '000' : '001'} text:`
  );
}

/** YYMMDDhhmm, UTC. */
function smscTime(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
}

/** A reply: short_message when it fits one SMS, else the whole text in message_payload. */
function moOptions(phone: string, receipt: OwedReceipt): Record<string, unknown> {
  const ascii = /^[\x20-\x7e]*$/.test(receipt.content);
  const fits = ascii ? receipt.content.length <= 160 : receipt.content.length <= 70;
  const base = {
    source_addr: phone,
    destination_addr: receipt.srcId,
    esm_class: 0,
    data_coding: ascii ? 1 : 8,
  };
  return fits
    ? { ...base, short_message: { message: receipt.content } }
    : { ...base, message_payload: { message: receipt.content } };
}
