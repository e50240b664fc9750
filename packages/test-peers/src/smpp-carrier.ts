/// <reference path="../../../types/smpp.d.ts" />
/**
 * A carrier SMSC on loopback speaking SMPP 3.4 (via the `smpp` package's server), so Herald's real
 * SMPP client binds, submits and receives delivery receipts exactly as against a carrier.
 * Behaviour is scripted per destination number because carriers fail per number (unknown
 * subscriber, barred) or per moment (throttling). Receipts are routed like a real SMSC does: to
 * the submitting session when it can receive, else to another receiver bound with the same
 * system_id, else kept until one binds, so reconnect tests (`dropAll()`) still get their receipts.
 * `messages` holds accepted submits only; rejected ones get their command_status and nothing more.
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
}

export interface SmppCarrierOptions {
  host?: string;
  port?: number;
  /** system_id → password. When absent, any credentials bind. */
  accounts?: Record<string, string>;
  /** Delay between submit_sm_resp and the delivery receipt. Default 50 ms. */
  receiptDelayMs?: number;
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
  registeredDelivery: number;
  messageId: string;
  receivedAt: Date;
}

export interface SmppCarrier {
  readonly host: string;
  readonly port: number;
  /** Accepted submits, oldest first. The same array for the life of the peer. */
  readonly messages: SubmittedSms[];
  /** Sessions currently bound. */
  readonly sessions: number;
  /** Script a destination (a leading '+' is ignored). Replaces an earlier script for it. */
  script(destination: string, behaviour: SmppBehaviour): void;
  /** Behaviour for destinations without their own script; `null` restores plain delivery. */
  scriptDefault(behaviour: SmppBehaviour | null): void;
  unscript(destination: string): void;
  /** Resolves once at least `count` submits were accepted (default timeout 5000 ms). */
  waitForMessages(count: number, timeoutMs?: number): Promise<SubmittedSms[]>;
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
      const text = formatReceipt({
        id: sms.messageId,
        stat,
        err,
        submitDate: sms.receivedAt,
        doneDate: new Date(),
        text: sms.text,
      });
      deliverReceipt(sms.systemId, session, {
        source_addr: sms.destination,
        destination_addr: sms.source,
        esm_class: 0x04,
        data_coding: 0,
        short_message: text,
        receipted_message_id: sms.messageId,
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
    if (behaviour?.reject) return void session.send(pdu.response({ command_status: behaviour.reject }));
    let body = readMessageField(pdu.short_message);
    if (body.text === '' && pdu.message_payload !== undefined) body = readMessageField(pdu.message_payload);
    counter += 1;
    const sms: SubmittedSms = {
      systemId: state.systemId,
      source: str(pdu.source_addr),
      destination: str(pdu.destination_addr),
      dataCoding: num(pdu.data_coding),
      esmClass: num(pdu.esm_class),
      text: body.text,
      udh: body.udh,
      registeredDelivery: num(pdu.registered_delivery),
      messageId: idPrefix + counter.toString(16).padStart(8, '0'),
      receivedAt: new Date(),
    };
    messages.push(sms);
    session.send(pdu.response({ message_id: sms.messageId }));
    waiter.notify();
    scheduleReceipt(session, sms, behaviour);
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
    dropAll() {
      for (const session of [...server.sessions]) session.destroy();
    },
    clear() {
      messages.length = 0;
      scripts.clear();
      fallback = null;
      pendingReceipts.clear();
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
