import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import type { MobileOriginated, ReceiptListener, SmsSubmission, SubmitOutcome } from '../ports.ts';
import {
  CMPP,
  type CmppFrame,
  type CmppVersion,
  decodeDeliver,
  decodeResp,
  decodeStatusReport,
  encodeDeliverResp,
  encodeSubmit,
} from './cmpp-codec.ts';
import { cmppContent, describeResult, MoAssembler, splitUdh } from './cmpp-content.ts';
import { CmppLink } from './cmpp-link.ts';
import type { CarrierConnection } from './connection-set.ts';
import { SubmitWindow } from './submit-window.ts';

/**
 * One long-lived CMPP 2.0 or 3.0 connection with a China Mobile gateway (ISMG), the SP side, as
 * the gateways expect: CONNECT once (SP id, the MD5 authenticator, the version), SUBMITs and
 * their answers and the gateway's DELIVERs (status reports and mobile-originated replies) on the
 * same socket, ACTIVE_TEST from either side while idle (the connection itself is cmpp-link.ts),
 * and a new connection with a growing pause after the gateway drops it or stops answering. A submit waits a while for the connection rather
 * than failing at the first hiccup, then for a place in the window (16 unanswered SUBMITs, the
 * spec's figure) and the contract's rate. Result 8 ("too fast") pauses the connection and sends
 * the part again; every other non-zero result refuses the text, permanently when a retry would
 * meet the same answer. A long text goes as parts with a UDH; one refused part refuses the whole
 * text, and a retry sends every part again under a new reference.
 *
 * Message ids are the Msg_Id's 16 lowercase hex digits, the same string in `accepted.messageIds`
 * and in the status report's receipt. Gateways do not resend a report that got its DELIVER_RESP,
 * so every DELIVER is answered at once, before its content is handed on.
 */
export interface CmppConnectorOptions {
  /** cmpp://host:port */
  url: string;
  version: CmppVersion;
  /** Source_Addr: the SP id (enterprise code) the gateway knows this SP by. */
  spId: string;
  /** The shared secret of the MD5 authenticator. */
  secret: string;
  /** Service_Id of every SUBMIT, as the carrier's contract assigns it. Default empty. */
  serviceId?: string;
  /**
   * The SP's service code for Src_Id. A numeric sender that starts with it is sent as is; any
   * other numeric sender is appended to it as an extension; a non-numeric sender (a name) sends
   * the bare code. Without it, numeric senders go as they are and names as the SP id.
   */
  srcId?: string;
  logger: Logger;
  onReceipt: ReceiptListener;
  /** A reply from a handset (a DELIVER that is not a status report). Long replies come joined. */
  onMo?: (message: MobileOriginated) => void;
  /**
   * Joins long replies; given when several connections share one account, since a reply's parts
   * may come on different ones (connection-set.ts). Its joined replies go to its own callback.
   */
  moAssembler?: MoAssembler;
  /** Unanswered SUBMITs at once. Default 16. */
  windowSize?: number;
  /** SUBMITs started per second on the connection; unlimited when absent. */
  submitsPerSecond?: number;
  /** Silence after which Herald sends ACTIVE_TEST. Default 30 s. */
  activeTestMs?: number;
  /** Unanswered ACTIVE_TESTs in a row after which the connection is given up. Default 3. */
  activeTestMisses?: number;
  responseTimeoutMs?: number;
  /** How long a submit waits for a logged-in connection. */
  connectWaitMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Resends of one part answered with result 8 before the text is deferred. Default 10. */
  flowControlRetries?: number;
  /** First pause after result 8, doubled on each further one up to 2 s. Default 200 ms. */
  flowControlPauseMs?: number;
}

type PartsOutcome = SubmitOutcome | { kind: 'lost'; reason: string };

const FLOW_CONTROL = 8;
const MAX_FLOW_PAUSE_MS = 2000;

export class CmppConnector implements CarrierConnection {
  private readonly options: CmppConnectorOptions;
  private readonly log: Logger;
  private readonly host: string;
  private readonly port: number;
  private readonly window: SubmitWindow;
  private readonly mo: MoAssembler;
  private link: CmppLink | undefined;
  private closed = false;
  private reconnectDelay: number;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private lastError: string | undefined;
  private readonly readyWaiters = new Set<(ready: boolean) => void>();

  constructor(options: CmppConnectorOptions) {
    this.options = options;
    this.log = options.logger;
    const url = new URL(options.url);
    this.host = url.hostname;
    this.port = Number(url.port || 7890);
    this.reconnectDelay = options.reconnectMinMs ?? 500;
    this.window = new SubmitWindow({ size: options.windowSize ?? 16, perSecond: options.submitsPerSecond });
    this.mo =
      options.moAssembler ??
      new MoAssembler((from, to, text) => this.handOnMo({ from, to, text, receivedAt: new Date() }));
  }

  get ready(): boolean {
    return this.link?.ready === true;
  }

  /** Connects and logs in in the background; a no-op while a connection exists. */
  start(): void {
    if (this.closed || this.link || this.reconnectTimer) return;
    this.connect();
  }

  async submit(sms: SmsSubmission, signal?: AbortSignal): Promise<SubmitOutcome> {
    this.start();
    // A connection that drops mid-submit is usually back within a second: one more go on the new one.
    for (let round = 1; ; round += 1) {
      if (!(await this.whenReady(signal))) return this.unavailable();
      const outcome = await this.submitParts(sms, signal);
      if (outcome.kind !== 'lost') return outcome;
      if (round === 2 || signal?.aborted)
        return { kind: 'refused', permanent: false, reason: outcome.reason };
    }
  }

  unavailable(): SubmitOutcome {
    const why = this.lastError ? `: ${this.lastError}` : '';
    const waitMs = this.options.connectWaitMs ?? 15_000;
    return { kind: 'refused', permanent: false, reason: `no CMPP session within ${waitMs} ms${why}` };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    for (const settle of this.readyWaiters) settle(false);
    this.readyWaiters.clear();
    this.window.close();
    this.mo.close();
    await this.link?.end();
  }

  private async submitParts(sms: SmsSubmission, signal?: AbortSignal): Promise<PartsOutcome> {
    const { msgFmt, parts } = cmppContent(sms.text, randomInt(256));
    const destination = sms.to.trim().replace(/^\+/, '');
    const srcId = this.srcIdFor(sms.from);
    const messageIds: string[] = [];
    for (const [index, content] of parts.entries()) {
      let pause = this.options.flowControlPauseMs ?? 200;
      for (let resends = 0; ; resends += 1) {
        if (!(await this.window.acquire(signal, sms.bulk))) {
          return {
            kind: 'refused',
            permanent: false,
            reason: 'submit abandoned: connector closed or aborted',
          };
        }
        const link = this.link;
        let answer: { msgId: string; result: number };
        try {
          if (!link?.ready) return { kind: 'lost', reason: 'CMPP connection lost' };
          const body = encodeSubmit(link.version, {
            pkTotal: parts.length,
            pkNumber: index + 1,
            registeredDelivery: 1,
            msgLevel: 1,
            serviceId: this.options.serviceId ?? '',
            feeUserType: 2,
            tpUdhi: parts.length > 1 ? 1 : 0,
            msgFmt,
            msgSrc: this.options.spId,
            feeType: '01',
            feeCode: '000000',
            srcId,
            destinations: [destination],
            content,
          });
          answer = decodeResp(link.version, (await link.request(CMPP.SUBMIT, body)).body);
        } catch (error) {
          // Unanswered, unsendable or unreadable: this connection is of no more use.
          link?.destroy('SUBMIT unanswered');
          return { kind: 'lost', reason: `SUBMIT: ${(error as Error).message}` };
        } finally {
          this.window.release();
        }
        if (answer.result === 0) {
          messageIds.push(answer.msgId);
          break;
        }
        if (answer.result === FLOW_CONTROL && resends < (this.options.flowControlRetries ?? 10)) {
          this.log.debug({ pauseMs: pause }, 'CMPP flow control; pausing before resending');
          this.window.pause(pause);
          pause = Math.min(pause * 2, MAX_FLOW_PAUSE_MS);
          continue;
        }
        const { reason, permanent } = describeResult(answer.result);
        const after = answer.result === FLOW_CONTROL ? ` after ${resends} resends` : '';
        const part = `part ${index + 1}/${parts.length}`;
        return { kind: 'refused', permanent, reason: `carrier refused ${part}: ${reason}${after}` };
      }
    }
    return { kind: 'accepted', messageIds };
  }

  private srcIdFor(from: string): string {
    const digits = from.trim().replace(/^\+/, '');
    const code = this.options.srcId;
    if (!/^\d+$/.test(digits)) return code ?? this.options.spId;
    if (!code || digits.startsWith(code)) return digits.slice(0, 21);
    return (code + digits).slice(0, 21);
  }

  private connect(): void {
    this.link = new CmppLink(
      {
        host: this.host,
        port: this.port,
        version: this.options.version,
        spId: this.options.spId,
        secret: this.options.secret,
        logger: this.log,
        responseTimeoutMs: this.options.responseTimeoutMs ?? 10_000,
        activeTestMs: this.options.activeTestMs ?? 30_000,
        activeTestMisses: this.options.activeTestMisses ?? 3,
      },
      {
        ready: (link) => this.onReady(link),
        deliver: (link, frame) => this.onDeliver(link, frame),
        closed: (link, why) => this.onClosed(link, why),
      },
    );
  }

  private onReady(link: CmppLink): void {
    if (link !== this.link || this.closed) return void link.destroy('not wanted any more');
    this.lastError = undefined;
    this.reconnectDelay = this.options.reconnectMinMs ?? 500;
    for (const settle of this.readyWaiters) settle(true);
    this.readyWaiters.clear();
  }

  private onClosed(link: CmppLink, why: string | undefined): void {
    if (link !== this.link) return;
    this.link = undefined;
    if (why) this.lastError = why;
    if (this.closed) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, this.options.reconnectMaxMs ?? 30_000);
    this.log.warn({ retryInMs: delay, why }, 'CMPP connection closed; reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.closed) this.connect();
    }, delay);
  }

  private onDeliver(link: CmppLink, frame: CmppFrame): void {
    let deliver: ReturnType<typeof decodeDeliver>;
    try {
      deliver = decodeDeliver(link.version, frame.body);
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'CMPP DELIVER unreadable');
      const msgId = frame.body.length >= 8 ? frame.body.subarray(0, 8) : Buffer.alloc(8);
      link.write(CMPP.DELIVER_RESP, frame.sequenceId, encodeDeliverResp(link.version, msgId, 1));
      return;
    }
    link.write(CMPP.DELIVER_RESP, frame.sequenceId, encodeDeliverResp(link.version, deliver.msgId, 0));
    try {
      if (deliver.registeredDelivery === 1) {
        const report = decodeStatusReport(deliver.content);
        this.options.onReceipt({
          messageId: report.msgId,
          stat: report.stat,
          err: undefined,
          delivered: report.stat === 'DELIVRD',
          final: report.stat !== 'ACCEPTD',
        });
      } else {
        const { body, concat } = splitUdh(deliver.content, deliver.tpUdhi);
        this.mo.add(deliver.srcTerminalId, deliver.destId, deliver.msgFmt, body, concat);
      }
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'CMPP DELIVER not understood');
    }
  }

  private handOnMo(message: MobileOriginated): void {
    if (!this.options.onMo) return void this.log.info('CMPP mobile-originated message ignored');
    this.options.onMo(message);
  }

  whenReady(signal?: AbortSignal): Promise<boolean> {
    const timeoutMs = this.options.connectWaitMs ?? 15_000;
    if (this.link?.ready) return Promise.resolve(true);
    if (this.closed || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (ready: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.readyWaiters.delete(settle);
        resolve(ready);
      };
      const onAbort = () => settle(false);
      const timer = setTimeout(() => settle(false), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.readyWaiters.add(settle);
    });
  }
}
