/**
 * The retransmissions of one SIP client transaction over UDP (RFC 3261 §17.1), which is what makes
 * a lost datagram cost a moment instead of a call. An INVITE is sent again after T1, 2·T1, 4·T1…
 * (timer A) until any response, and given up after 64·T1 without one (timer B). A BYE or CANCEL
 * is sent again at doubling intervals capped at T2 (timer E), at T2 once a provisional response
 * came, and given up after 64·T1 (timer F). The transaction's final response stops it. Over a
 * reliable transport (TCP) nothing is sent again (§17.1.1.2, §17.1.2.2); timers B and F still
 * give up on a trunk that never answers.
 */
export const SIP_T1_MS = 500;
const T2_MS = 4000;

export class ClientTransaction {
  private readonly send: () => void;
  private readonly invite: boolean;
  private readonly reliable: boolean;
  private readonly t1: number;
  private readonly onTimeout: () => void;
  private interval: number;
  private resend: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private proceeding = false;

  constructor(
    send: () => void,
    options: { invite: boolean; reliable?: boolean; t1?: number; onTimeout: () => void },
  ) {
    this.send = send;
    this.invite = options.invite;
    this.reliable = options.reliable ?? false;
    this.t1 = options.t1 ?? SIP_T1_MS;
    this.interval = this.t1;
    this.onTimeout = options.onTimeout;
  }

  start(): void {
    this.send();
    this.schedule();
    this.deadline = setTimeout(() => {
      this.stop();
      this.onTimeout();
    }, 64 * this.t1);
  }

  /** A provisional response: an INVITE waits quietly for its final one, a BYE or CANCEL slows to T2. */
  provisional(): void {
    if (this.proceeding) return;
    this.proceeding = true;
    clearTimeout(this.resend);
    if (this.invite) {
      clearTimeout(this.deadline);
      return;
    }
    this.interval = T2_MS;
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.resend);
    clearTimeout(this.deadline);
  }

  private schedule(): void {
    if (this.reliable) return;
    this.resend = setTimeout(() => {
      this.send();
      this.interval = this.invite ? this.interval * 2 : Math.min(this.interval * 2, T2_MS);
      this.schedule();
    }, this.interval);
  }
}
