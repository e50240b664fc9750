/// <reference path="../../../types/smpp.d.ts" />
/**
 * A carrier SMSC on loopback speaking SMPP 3.4 (via the `smpp` package's server), so Herald's real
 * SMPP client binds, submits and receives delivery receipts exactly as against a carrier.
 * Behaviour is scripted per destination number because carriers fail per number (unknown
 * subscriber, barred) or per moment (throttling). Receipts are routed like a real SMSC does: to
 * the submitting session when it can receive, else to another receiver bound with the same
 * system_id, else kept until one binds, so reconnect tests (`dropAll()`) still get their receipts.
 * `messages` holds accepted submits only; rejected ones get their command_status and nothing more.
 * Options make it behave like the carriers that trouble clients: answers held back (so a client's
 * window shows), ids answered in hex but receipted in decimal (or the reverse, zero-padded), and
 * throttling for the first few submits only.
 */
import { randomBytes } from 'node:crypto';
import smpp, { type Pdu, type PduOptions, type Session } from 'smpp';
import {
  formatReceipt,
  MESSAGE_STATE,
  readMessageField,
  type SmppReceiptStatus,
  type Udh,
} from './smpp-text.ts';
import { createWaiter } from './waiter.ts';

export type { SmppReceiptStatus, Udh } from './smpp-text.ts';

/** What the carrier does for one destination. Fields combine. */
export interface SmppBehaviour {
  /** Answer submit_sm with this command_status, e.g. 0x45 ESME_RSUBMITFAIL or 0x58 ESME_RTHROTTLED. */
  reject?: number;
  /** Final status reported in the receipt. Default 'DELIVRD'. */
  receipt?: SmppReceiptStatus;
  /** err: field of the receipt, three digits. Default '000' when delivered, '001' otherwise. */
  err?: string;
  /** Delay before the receipt, overriding the carrier-wide `receiptDelayMs`. */
  receiptDelayMs?: number;
  /** Never send a receipt, whatever registered_delivery asked for. */
  noReceipt?: boolean;
  /** With `reject`: refuse only the first this many submits to the destination, then accept. */
  rejectTimes?: number;
}

/** How message ids are written; a carrier may use one notation in answers and another in receipts. */
export interface SmppIdFormat {
  /** submit_sm_resp's message_id. Default 'hex'. */
  response?: 'hex' | 'decimal';
  /** The receipt text's `id:`. Default: as in the response. */
  receipt?: 'hex' | 'decimal';
  /** Left-pad the receipt's `id:` with zeros to this many characters. */
  receiptWidth?: number;
  /** Upper-case hex in the receipt's `id:`. */
  receiptUpperCase?: boolean;
  /** The receipted_message_id TLV: as the response wrote the id (default), as the receipt text did, or absent. */
  receiptedMessageId?: 'response' | 'receipt' | 'none';
}

export interface SmppCarrierOptions {
  host?: string;
  port?: number;
  /** system_id → password. When absent, any credentials bind. */
  accounts?: Record<string, string>;
  /** Delay between submit_sm_resp and the delivery receipt. Default 50 ms. */
  receiptDelayMs?: number;
  /** Hold every submit_sm_resp back this long. Default 0 (answered at once). */
  responseDelayMs?: number;
  ids?: SmppIdFormat;
}

export interface SubmittedSms {
  systemId: string;
  source: string;
  destination: string;
  dataCoding: number;
  esmClass: number;
  /** Decoded text (GSM 03.38 for data_coding 0/1, UCS-2 big-endian for 8), without the UDH. */
  text: string;
  /** Concatenation info when esm_class has UDHI set. */
  udh: Udh | undefined;
  /** Concatenation info from the sar_msg_ref_num / sar_total_segments / sar_segment_seqnum TLVs. */
  sar: Udh | undefined;
  registeredDelivery: number;
  messageId: string;
  receivedAt: Date;
}

export interface SentReceipt {
  text: string;
  receiptedMessageId: string | undefined;
}

export interface SmppCarrier {
  readonly host: string;
  readonly port: number;
  /** Accepted submits, oldest first. The same array for the life of the peer. */
  readonly messages: SubmittedSms[];
  /** Sessions currently bound. */
  readonly sessions: number;
  /** Submits refused by a script's `reject`. */
  readonly rejected: number;
  /** Most submit_sm that awaited their answer at once (see `responseDelayMs`). */
  readonly maxOutstanding: number;
  /** Receipts sent, oldest first: their text and receipted_message_id TLV. */
  readonly receipts: SentReceipt[];
  /** Script a destination (a leading '+' is ignored). Replaces an earlier script for it. */
  script(destination: string, behaviour: SmppBehaviour): void;
  /** Behaviour for destinations without their own script; `null` restores plain delivery. */
  scriptDefault(behaviour: SmppBehaviour | null): void;
  unscript(destination: string): void;
  /** Resolves once at least `count` submits were accepted (default timeout 5000 ms). */
  waitForMessages(count: number, timeoutMs?: number): Promise<SubmittedSms[]>;
  /**
   * A handset's reply: a deliver_sm (esm_class 0, UCS-2 when the text is not ASCII) from `from`
   * to `to` on a bound receiving session; false when no session can take it.
   */
  sendMo(from: string, to: string, text: string): boolean;
  /** Destroys every connection at once, as a carrier outage would. */
  dropAll(): void;
  /** Forgets messages, scripts and receipts not yet delivered. */
  clear(): void;
  close(): Promise<void>;
}

type BindMode = 'transceiver' | 'transmitter' | 'receiver';
const BIND_MODES: Record<string, BindMode> = {
  bind_transceiver: 'transceiver',
  bind_transmitter: 'transmitter',
  bind_receiver: 'receiver',
};
const ESME_RALYBND = 0x05;
const ESME_RINVBNDSTS = 0x04;
const ESME_RBINDFAIL = 0x0d;
const ESME_RINVCMDID = 0x03;

const normalizeNumber = (n: string): string => n.trim().replace(/^\+/, '');
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

export async function startSmppCarrier(options: SmppCarrierOptions = {}): Promise<SmppCarrier> {
  const host = options.host ?? '127.0.0.1';
  const messages: SubmittedSms[] = [];
  const scripts = new Map<string, SmppBehaviour>();
  let fallback: SmppBehaviour | null = null;
  const bound = new Map<Session, { mode: BindMode; systemId: string }>();
  const pendingReceipts = new Map<string, PduOptions[]>();
  const timers = new Set<NodeJS.Timeout>();
  const waiter = createWaiter(() => messages, 'smpp-carrier');
  const idPrefix = randomBytes(4).toString('hex');
  let counter = 0;
  let rejected = 0;
  let outstanding = 0;
  let maxOutstanding = 0;
  const rejectedPerDestination = new Map<string, number>();
  const receipts: SentReceipt[] = [];
  const ids = options.ids ?? {};
  const asDecimal = (hex: string) => BigInt(`0x${hex}`).toString(10);
  const receiptId = (hex: string): string => {
    const notation = ids.receipt ?? ids.response ?? 'hex';
    let id = notation === 'decimal' ? asDecimal(hex) : hex;
    if (notation === 'hex' && ids.receiptUpperCase) id = id.toUpperCase();
    return id.padStart(ids.receiptWidth ?? 0, '0');
  };

  const canReceive = (session: Session, systemId: string): boolean => {
    const state = bound.get(session);
    return !!state && state.mode !== 'transmitter' && state.systemId === systemId && session.socket.writable;
  };

  const deliverReceipt = (systemId: string, preferred: Session, receipt: PduOptions): void => {
    const target = canReceive(preferred, systemId)
      ? preferred
      : [...bound.keys()].find((s) => canReceive(s, systemId));
    if (target?.deliver_sm(receipt)) return;
    pendingReceipts.set(systemId, [...(pendingReceipts.get(systemId) ?? []), receipt]);
  };

  const scheduleReceipt = (session: Session, sms: SubmittedSms, behaviour: SmppBehaviour | null): void => {
    const stat = behaviour?.receipt ?? 'DELIVRD';
    const wanted = sms.registeredDelivery & 0x03;
    if (behaviour?.noReceipt || !(wanted === 1 || (wanted === 2 && stat !== 'DELIVRD'))) return;
    const delay = behaviour?.receiptDelayMs ?? options.receiptDelayMs ?? 50;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const err = behaviour?.err ?? (stat === 'DELIVRD' ? '000' : '001');
      const hex =
        ids.response === 'decimal' ? BigInt(sms.messageId).toString(16).padStart(16, '0') : sms.messageId;
      const textId = receiptId(hex);
      const tlv = ids.receiptedMessageId ?? 'response';
      const text = formatReceipt({
        id: textId,
        stat,
        err,
        submitDate: sms.receivedAt,
        doneDate: new Date(),
        text: sms.text,
      });
      const receiptedMessageId = tlv === 'none' ? undefined : tlv === 'receipt' ? textId : sms.messageId;
      receipts.push({ text, receiptedMessageId });
      deliverReceipt(sms.systemId, session, {
        source_addr: sms.destination,
        destination_addr: sms.source,
        esm_class: 0x04,
        data_coding: 0,
        short_message: text,
        ...(receiptedMessageId === undefined ? {} : { receipted_message_id: receiptedMessageId }),
        message_state: MESSAGE_STATE[stat],
      });
    }, delay);
    timers.add(timer);
  };

  const onBind = (session: Session, pdu: Pdu, mode: BindMode): void => {
    if (bound.has(session)) return void session.send(pdu.response({ command_status: ESME_RALYBND }));
    const systemId = str(pdu.system_id);
    const accounts = options.accounts;
    if (accounts && accounts[systemId] !== str(pdu.password)) {
      session.send(pdu.response({ command_status: ESME_RBINDFAIL }), () => session.close());
      return;
    }
    bound.set(session, { mode, systemId });
    session.send(pdu.response({ system_id: 'HERALDSMSC' }));
    const queued = mode === 'transmitter' ? undefined : pendingReceipts.get(systemId);
    if (queued) {
      pendingReceipts.delete(systemId);
      for (const receipt of queued) deliverReceipt(systemId, session, receipt);
    }
  };

  const onSubmit = (session: Session, pdu: Pdu): void => {
    const state = bound.get(session);
    if (!state || state.mode === 'receiver')
      return void session.send(pdu.response({ command_status: ESME_RINVBNDSTS }));
    const destination = normalizeNumber(str(pdu.destination_addr));
    const behaviour = scripts.get(destination) ?? fallback;
    if (behaviour?.reject) {
      const times = rejectedPerDestination.get(destination) ?? 0;
      if (behaviour.rejectTimes === undefined || times < behaviour.rejectTimes) {
        rejectedPerDestination.set(destination, times + 1);
        rejected += 1;
        return void session.send(pdu.response({ command_status: behaviour.reject }));
      }
    }
    let body = readMessageField(pdu.short_message);
    if (body.text === '' && pdu.message_payload !== undefined) body = readMessageField(pdu.message_payload);
    counter += 1;
    const hexId = idPrefix + counter.toString(16).padStart(8, '0');
    const sarTotal = num(pdu.sar_total_segments);
    const sms: SubmittedSms = {
      systemId: state.systemId,
      source: str(pdu.source_addr),
      destination: str(pdu.destination_addr),
      dataCoding: num(pdu.data_coding),
      esmClass: num(pdu.esm_class),
      text: body.text,
      udh: body.udh,
      sar: sarTotal
        ? { ref: num(pdu.sar_msg_ref_num), total: sarTotal, seq: num(pdu.sar_segment_seqnum) }
        : undefined,
      registeredDelivery: num(pdu.registered_delivery),
      messageId: ids.response === 'decimal' ? asDecimal(hexId) : hexId,
      receivedAt: new Date(),
    };
    const accept = (): void => {
      messages.push(sms);
      session.send(pdu.response({ message_id: sms.messageId }));
      waiter.notify();
      scheduleReceipt(session, sms, behaviour);
    };
    const delay = options.responseDelayMs ?? 0;
    if (delay <= 0) return void accept();
    outstanding += 1;
    maxOutstanding = Math.max(maxOutstanding, outstanding);
    const timer = setTimeout(() => {
      timers.delete(timer);
      outstanding -= 1;
      accept();
    }, delay);
    timers.add(timer);
  };

  const onPdu = (session: Session, pdu: Pdu): void => {
    if (pdu.isResponse()) return; // deliver_sm_resp and friends: nothing to do
    const mode = BIND_MODES[pdu.command];
    if (mode) {
      onBind(session, pdu, mode);
    } else if (pdu.command === 'submit_sm') {
      onSubmit(session, pdu);
    } else if (pdu.command === 'enquire_link') {
      session.send(pdu.response());
    } else if (pdu.command === 'unbind') {
      bound.delete(session);
      session.send(pdu.response(), () => session.close());
    } else {
      const nack = { command_status: ESME_RINVCMDID, sequence_number: pdu.sequence_number };
      session.send(new smpp.PDU('generic_nack', nack));
    }
  };

  const server = smpp.createServer({}, (session) => {
    session.on('pdu', (pdu: Pdu) => onPdu(session, pdu));
    session.on('error', () => session.destroy());
    session.on('close', () => bound.delete(session));
  });
  server.on('error', () => {
    // Connection-level errors are handled per session.
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    messages,
    get sessions() {
      return bound.size;
    },
    get rejected() {
      return rejected;
    },
    get maxOutstanding() {
      return maxOutstanding;
    },
    receipts,
    script(destination, behaviour) {
      scripts.set(normalizeNumber(destination), behaviour);
    },
    scriptDefault(behaviour) {
      fallback = behaviour;
    },
    unscript(destination) {
      scripts.delete(normalizeNumber(destination));
    },
    waitForMessages(count, timeoutMs = 5000) {
      return waiter.waitFor(count, timeoutMs);
    },
    sendMo(from, to, text) {
      const target = [...bound.keys()].find((s) => {
        const state = bound.get(s);
        return !!state && state.mode !== 'transmitter' && s.socket.writable;
      });
      const ascii = /^[\x20-\x7e]*$/.test(text);
      return !!target?.deliver_sm({
        source_addr: normalizeNumber(from),
        destination_addr: normalizeNumber(to),
        esm_class: 0,
        data_coding: ascii ? 0 : 8,
        short_message: ascii ? text : { message: text },
      });
    },
    dropAll() {
      for (const session of [...server.sessions]) session.destroy();
    },
    clear() {
      messages.length = 0;
      scripts.clear();
      fallback = null;
      pendingReceipts.clear();
      rejectedPerDestination.clear();
      rejected = 0;
      maxOutstanding = 0;
      receipts.length = 0;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        waiter.cancelAll('peer closed');
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const session of [...server.sessions]) session.destroy();
      });
      return closing;
    },
  };
}
