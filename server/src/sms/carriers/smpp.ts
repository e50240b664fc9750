/// <reference path="../../../../types/smpp.d.ts" />
import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import smpp, { type Pdu, type PduOptions, type Session } from 'smpp';
import type { MobileOriginated, ReceiptListener, SmsSubmission, SubmitOutcome } from '../ports.ts';
import { concatenationUdh, splitSms } from '../sms-parts.ts';
import type { CarrierConnection } from './connection-set.ts';
import { MessageIdBook, parseReceipt } from './smpp-receipt.ts';
import { SubmitWindow } from './submit-window.ts';

/**
 * One long-lived SMPP 3.4 session with the carrier's SMSC, as carriers expect: bound once as a
 * transceiver (submits go out and delivery receipts come back on the same connection), kept alive
 * with enquire_link, and re-established with a growing pause after the carrier drops it. A
 * submit waits a while for the session to be bound rather than failing at the first hiccup.
 * Every request has its own timeout and fails when the connection closes, because the `smpp`
 * package would otherwise keep its callbacks forever. A long text goes as concatenated parts
 * (a UDH in each, or the sar_* TLVs for carriers that want those); when one part is refused the
 * whole text counts as refused and a retry sends every part again under a new reference
 * (handsets drop incomplete sets).
 * Submits keep to a window of unanswered submit_sm (SMPP recommends 10) and the contract's rate;
 * ESME_RTHROTTLED and ESME_RMSGQFUL pause the connection and send the part again, and only when
 * the carrier keeps saying so is the text deferred. Receipts name their message in whatever
 * notation the carrier likes; they are handed on under the id `submit` returned (smpp-receipt.ts).
 */
export interface SmppConnectorOptions {
  /** smpp://host:port */
  url: string;
  systemId: string;
  password: string;
  logger: Logger;
  onReceipt: ReceiptListener;
  enquireLinkMs?: number;
  responseTimeoutMs?: number;
  /** How long a submit waits for a bound session. */
  bindWaitMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Unanswered submit_sm at once. Default 10. */
  windowSize?: number;
  /** submit_sm started per second on the connection; unlimited when absent. */
  submitsPerSecond?: number;
  /** Resends of one part the carrier throttles before the text is deferred. Default 3. */
  throttleRetries?: number;
  /** First pause after a throttle, doubled on each further one up to 2 s. Default 250 ms. */
  throttlePauseMs?: number;
  /** How a long text's parts say they belong together: a UDH (default) or the sar_* TLVs. */
  concatenation?: 'udh' | 'sar';
  /** Replies from handsets: deliver_sm that are not delivery receipts. */
  onMo?: (message: MobileOriginated) => void;
  /**
   * The ids submits were given; shared when several connections bind one account, since a
   * receipt may come on another connection than its submit (connection-set.ts).
   */
  ids?: MessageIdBook;
}

type Request = 'bind_transceiver' | 'submit_sm' | 'enquire_link' | 'unbind';

const ESM_CLASS_TYPE = 0x3c;
const ESM_DELIVERY_RECEIPT = 0x04;
const TON_INTERNATIONAL = 1;
const TON_ALPHANUMERIC = 5;
const NPI_ISDN = 1;
const ESME_RMSGQFUL = 0x14;
const ESME_RTHROTTLED = 0x58;
/** "Too fast" and "queue full": the carrier will take the part a moment later. */
const THROTTLED = new Set([ESME_RTHROTTLED, ESME_RMSGQFUL]);
const MAX_THROTTLE_PAUSE_MS = 2000;

/** Refusals that would recur on every retry: bad addresses, bad content, not allowed. */
const PERMANENT_STATUSES = new Set([
  0x01, 0x0a, 0x0b, 0x33, 0x43, 0x48, 0x49, 0x50, 0x51, 0x65, 0x66, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0x100,
  0x101, 0x103, 0x104,
]);

const STATUS_NAMES = new Map(Object.entries(smpp.errors).map(([name, code]) => [code, name]));

export function describeStatus(status: number): string {
  const hex = `0x${status.toString(16).padStart(2, '0')}`;
  const name = STATUS_NAMES.get(status);
  return name ? `${name} (${hex})` : `command_status ${hex}`;
}

export class SmppConnector implements CarrierConnection {
  private readonly options: SmppConnectorOptions;
  private readonly log: Logger;
  private session: Session | undefined;
  private bound = false;
  private closed = false;
  private reconnectDelay: number;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private enquireTimer: NodeJS.Timeout | undefined;
  private connectTimer: NodeJS.Timeout | undefined;
  private readonly boundWaiters = new Set<(bound: boolean) => void>();
  private readonly pending = new Set<(error: Error) => void>();
  private readonly window: SubmitWindow;
  private readonly ids: MessageIdBook;

  constructor(options: SmppConnectorOptions) {
    this.options = options;
    this.log = options.logger;
    this.reconnectDelay = options.reconnectMinMs ?? 500;
    this.window = new SubmitWindow({ size: options.windowSize ?? 10, perSecond: options.submitsPerSecond });
    this.ids = options.ids ?? new MessageIdBook();
  }

  get ready(): boolean {
    return this.bound;
  }

  /** Connects and binds in the background; a no-op while a session exists. */
  start(): void {
    if (this.closed || this.session || this.reconnectTimer) return;
    this.connect();
  }

  async submit(sms: SmsSubmission, signal?: AbortSignal): Promise<SubmitOutcome> {
    this.start();
    // A session that drops mid-submit is usually back within a second: one more go on the new one.
    for (let round = 1; ; round += 1) {
      if (!(await this.whenReady(signal))) return this.unavailable();
      const outcome = await this.submitParts(sms, signal);
      if (outcome.kind !== 'lost') return outcome;
      if (round === 2 || signal?.aborted)
        return { kind: 'refused', permanent: false, reason: outcome.reason };
    }
  }

  unavailable(): SubmitOutcome {
    const waitMs = this.options.bindWaitMs ?? 15_000;
    return { kind: 'refused', permanent: false, reason: `no bound SMPP session within ${waitMs} ms` };
  }

  private async submitParts(
    sms: SmsSubmission,
    signal?: AbortSignal,
  ): Promise<SubmitOutcome | { kind: 'lost'; reason: string }> {
    const { dataCoding, parts } = splitSms(sms.text);
    const sar = this.options.concatenation === 'sar';
    const ref = randomInt(sar ? 0x10000 : 0x100);
    const source = address(sms.from);
    const destination = address(sms.to);
    const messageIds: string[] = [];
    for (const [index, text] of parts.entries()) {
      const pdu: PduOptions = {
        source_addr_ton: source.ton,
        source_addr_npi: source.npi,
        source_addr: source.addr,
        dest_addr_ton: destination.ton,
        dest_addr_npi: destination.npi,
        destination_addr: destination.addr,
        registered_delivery: 1,
        data_coding: dataCoding,
        short_message:
          parts.length > 1 && !sar
            ? { udh: concatenationUdh(ref, parts.length, index + 1), message: text }
            : text,
      };
      if (parts.length > 1 && sar) {
        pdu.sar_msg_ref_num = ref;
        pdu.sar_total_segments = parts.length;
        pdu.sar_segment_seqnum = index + 1;
      }
      let pause = this.options.throttlePauseMs ?? 250;
      for (let resends = 0; ; resends += 1) {
        if (!(await this.window.acquire(signal, sms.bulk))) {
          return {
            kind: 'refused',
            permanent: false,
            reason: 'submit abandoned: connector closed or aborted',
          };
        }
        const session = this.session;
        let response: Pdu;
        try {
          if (!session || !this.bound) return { kind: 'lost', reason: 'SMPP session lost' };
          // The id is remembered as the answer is read, before a receipt right behind it.
          response = await this.request(session, 'submit_sm', { ...pdu }, undefined, (answer) => {
            if (answer.command_status === 0) this.ids.remember(String(answer.message_id ?? ''));
          });
        } catch (error) {
          // Unanswered or unsendable: this connection is of no more use; a new one is on its way.
          if (session) this.abandon(session);
          return { kind: 'lost', reason: `submit_sm: ${(error as Error).message}` };
        } finally {
          this.window.release();
        }
        const status = response.command_status;
        if (status === 0) {
          messageIds.push(String(response.message_id ?? ''));
          break;
        }
        if (THROTTLED.has(status) && resends < (this.options.throttleRetries ?? 3)) {
          this.log.debug(
            { pauseMs: pause, status: describeStatus(status) },
            'SMPP carrier throttles; pausing',
          );
          this.window.pause(pause);
          pause = Math.min(pause * 2, MAX_THROTTLE_PAUSE_MS);
          continue;
        }
        const reason = `carrier refused part ${index + 1}/${parts.length}: ${describeStatus(status)}`;
        return { kind: 'refused', permanent: PERMANENT_STATUSES.has(status), reason };
      }
    }
    return { kind: 'accepted', messageIds };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    for (const settle of this.boundWaiters) settle(false);
    this.boundWaiters.clear();
    this.window.close();
    const session = this.session;
    if (!session) return;
    if (this.bound) await this.request(session, 'unbind', {}, 2000).catch(() => undefined);
    // The carrier may already have closed the connection in answer to unbind.
    if (this.session !== session) return;
    await new Promise<void>((resolve) => session.destroy(resolve));
  }

  private connect(): void {
    const session = smpp.connect({ url: this.options.url });
    // Submits are small and answered one by one; Nagle's delay would stall a short window.
    session.socket.setNoDelay(true);
    this.session = session;
    // A carrier that neither accepts nor refuses the connection must not hold the submits forever.
    this.connectTimer = setTimeout(() => {
      if (session === this.session && !this.bound) session.destroy();
    }, this.options.responseTimeoutMs ?? 10_000);
    session.on('connect', () => void this.bind(session));
    session.on('error', (error: Error) => this.log.warn({ err: error.message }, 'SMPP connection error'));
    session.on('close', () => this.onClose(session));
    session.on('deliver_sm', (pdu: Pdu) => this.onDeliver(session, pdu));
    session.on('enquire_link', (pdu: Pdu) => session.send(pdu.response()));
    session.on('unbind', (pdu: Pdu) => {
      session.send(pdu.response());
      session.close();
    });
  }

  private async bind(session: Session): Promise<void> {
    try {
      const response = await this.request(session, 'bind_transceiver', {
        system_id: this.options.systemId,
        password: this.options.password,
      });
      if (response.command_status !== 0) {
        this.log.error({ status: describeStatus(response.command_status) }, 'SMPP bind refused');
        session.destroy();
        return;
      }
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'SMPP bind failed');
      session.destroy();
      return;
    }
    if (session !== this.session || this.closed) return;
    this.bound = true;
    clearTimeout(this.connectTimer);
    this.reconnectDelay = this.options.reconnectMinMs ?? 500;
    this.log.info('SMPP session bound');
    this.enquireTimer = setInterval(() => {
      this.request(session, 'enquire_link', {}).catch(() => session.destroy());
    }, this.options.enquireLinkMs ?? 30_000);
    for (const settle of this.boundWaiters) settle(true);
    this.boundWaiters.clear();
  }

  private abandon(session: Session): void {
    this.onClose(session);
    session.destroy();
  }

  private onClose(session: Session): void {
    if (session !== this.session) return;
    this.session = undefined;
    this.bound = false;
    clearInterval(this.enquireTimer);
    clearTimeout(this.connectTimer);
    const lost = new Error('connection closed');
    for (const fail of this.pending) fail(lost);
    this.pending.clear();
    if (this.closed) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, this.options.reconnectMaxMs ?? 30_000);
    this.log.warn({ retryInMs: delay }, 'SMPP session closed; reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.closed) this.connect();
    }, delay);
  }

  private onDeliver(session: Session, pdu: Pdu): void {
    session.send(pdu.response());
    const text = messageText(pdu.short_message) || messageText(pdu.message_payload);
    if ((Number(pdu.esm_class ?? 0) & ESM_CLASS_TYPE) !== ESM_DELIVERY_RECEIPT) {
      if (!this.options.onMo) return void this.log.info('SMPP mobile-originated message ignored');
      this.options.onMo({
        from: String(pdu.source_addr ?? ''),
        to: String(pdu.destination_addr ?? ''),
        text,
        receivedAt: new Date(),
      });
      return;
    }
    const receiptedId = typeof pdu.receipted_message_id === 'string' ? pdu.receipted_message_id : undefined;
    const receipt = parseReceipt(text, receiptedId, this.ids);
    if (receipt) this.options.onReceipt(receipt);
    else this.log.warn({ text }, 'SMPP delivery receipt not understood');
  }

  whenReady(signal?: AbortSignal): Promise<boolean> {
    const timeoutMs = this.options.bindWaitMs ?? 15_000;
    if (this.bound) return Promise.resolve(true);
    if (this.closed || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (bound: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.boundWaiters.delete(settle);
        resolve(bound);
      };
      const onAbort = () => settle(false);
      const timer = setTimeout(() => settle(false), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.boundWaiters.add(settle);
    });
  }

  private request(
    session: Session,
    command: Request,
    options: PduOptions,
    timeoutMs?: number,
    onAnswer?: (pdu: Pdu) => void,
  ): Promise<Pdu> {
    const ms = timeoutMs ?? this.options.responseTimeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.pending.delete(fail);
      };
      const fail = (error: Error) => {
        done();
        reject(error);
      };
      const timer = setTimeout(() => fail(new Error(`no ${command}_resp within ${ms} ms`)), ms);
      this.pending.add(fail);
      const sent = session[command](options, (pdu: Pdu) => {
        done();
        onAnswer?.(pdu);
        resolve(pdu);
      });
      if (!sent) fail(new Error('not connected'));
    });
  }
}

/** Numbers go as international (leading '+') or unknown TON; anything else is an alphanumeric sender id. */
function address(value: string): { ton: number; npi: number; addr: string } {
  const trimmed = value.trim();
  const digits = trimmed.replace(/^\+/, '');
  if (/^\d+$/.test(digits))
    return { ton: trimmed.startsWith('+') ? TON_INTERNATIONAL : 0, npi: NPI_ISDN, addr: digits };
  return { ton: TON_ALPHANUMERIC, npi: 0, addr: trimmed };
}

/** short_message as the `smpp` package decodes it: a string, `{ message }`, or raw bytes. */
function messageText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  if (value && typeof value === 'object' && 'message' in value) return messageText(value.message);
  return '';
}
