import type { SmsCarrier, SmsSubmission, SubmitOutcome } from '../ports.ts';

/**
 * Several connections to one carrier under one account (`connections=N` in the carrier URL).
 * Carriers bound each connection by its own window and contract rate, and allow an SP a few of
 * them, so more connections carry more. Each connection is a whole connector: it logs in, keeps
 * itself alive, keeps its window and flow control, and reconnects on its own. A submit goes to
 * the logged-in connection with the fewest submits under way, so one paused by flow control
 * keeps its backlog and the others take the new ones, and one reconnecting takes none (a submit
 * already on it when it dropped waits for it to come back, as with a single connection). When
 * none is logged in, submits wait for the first that is and go to it. Receipts and replies may
 * come on any connection: the connectors share one receipt listener (ids are the carrier's,
 * whichever connection carried them), and whatever else they must share (a long reply's parts,
 * SMPP's id notations) open-carrier.ts gives to each.
 */
export interface CarrierConnection extends SmsCarrier {
  /** Logged in (CMPP) or bound (SMPP): a submit would go out now. */
  readonly ready: boolean;
  /** Connects in the background; a no-op while a connection exists or is under way. */
  start(): void;
  /** True once logged in; false after the connector's own wait for a session, or on abort. */
  whenReady(signal?: AbortSignal): Promise<boolean>;
  /** What a submit answers when no session came within the wait, with the last error seen. */
  unavailable(): SubmitOutcome;
}

interface Member {
  connection: CarrierConnection;
  /** Submits handed to it and not yet answered, waiting for its window included. */
  underWay: number;
}

export class ConnectionSet implements SmsCarrier {
  private readonly members: Member[];

  constructor(connections: CarrierConnection[]) {
    this.members = connections.map((connection) => ({ connection, underWay: 0 }));
  }

  async submit(sms: SmsSubmission, signal?: AbortSignal): Promise<SubmitOutcome> {
    for (const { connection } of this.members) connection.start();
    if (!this.members.some((m) => m.connection.ready) && !(await this.anyReady(signal))) {
      return (this.members[0] as Member).connection.unavailable();
    }
    const member = this.leastBusy();
    member.underWay += 1;
    try {
      return await member.connection.submit(sms, signal);
    } finally {
      member.underWay -= 1;
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.members.map((m) => m.connection.close()));
  }

  /**
   * The logged-in connection with the fewest submits under way, the first on a tie; when every
   * one dropped since the check, the least busy of all, whose own wait for a session takes over.
   */
  private leastBusy(): Member {
    const ready = this.members.filter((m) => m.connection.ready);
    const pool = ready.length > 0 ? ready : this.members;
    return pool.reduce((best, m) => (m.underWay < best.underWay ? m : best));
  }

  /** Resolves true as soon as one connection logs in; false when none does within its wait. */
  private anyReady(signal?: AbortSignal): Promise<boolean> {
    const done = new AbortController();
    const stop = () => done.abort();
    signal?.addEventListener('abort', stop, { once: true });
    return new Promise<boolean>((resolve) => {
      let waiting = this.members.length;
      for (const { connection } of this.members) {
        void connection.whenReady(done.signal).then((ready) => {
          waiting -= 1;
          if (ready || waiting === 0) resolve(ready);
        });
      }
    }).finally(() => {
      signal?.removeEventListener('abort', stop);
      done.abort();
    });
  }
}

/** One connector, or a set of `count` of them from `open`. */
export function connectionSet(count: number, open: () => CarrierConnection): SmsCarrier {
  return count <= 1 ? open() : new ConnectionSet(Array.from({ length: count }, open));
}
