/**
 * The pace of one carrier connection, shared by the SMPP and CMPP connectors. Carriers bound a
 * connection twice: by how many submits may await their answer at once (the window: SMPP
 * recommends 10, CMPP 16) and by how many may start per second (the contract's throughput). Going
 * past either earns a "too fast" answer (ESME_RTHROTTLED, CMPP result 8), after which the
 * connector pauses the whole connection, not just the one submit, before it tries again.
 *
 * Slots are granted first come, first served, except that a bulk submit (an SMS task's) lets every
 * transactional one waiting pass it: a code never waits behind a task's backlog, only behind the
 * submits already on the wire. The rate is a token bucket holding 50 ms of submits, so a limit
 * of 100/s lets 5 go at once and then one every 10 ms.
 */
export interface SubmitWindowOptions {
  /** Most submits awaiting their response at once. */
  size: number;
  /** Most submits started per second; undefined or 0 for no limit. */
  perSecond?: number | undefined;
}

interface Waiting {
  grant: (granted: boolean) => void;
  bulk: boolean;
}

export class SubmitWindow {
  private readonly size: number;
  private readonly perSecond: number;
  private readonly burst: number;
  private tokens: number;
  private refilledAt = performance.now();
  private pausedUntil = 0;
  private inFlight = 0;
  private readonly queue: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: SubmitWindowOptions) {
    this.size = Math.max(1, Math.floor(options.size));
    this.perSecond = options.perSecond && options.perSecond > 0 ? options.perSecond : 0;
    this.burst = Math.max(1, this.perSecond / 20);
    this.tokens = this.burst;
  }

  /** Submits holding a slot. */
  get outstanding(): number {
    return this.inFlight;
  }

  /**
   * Resolves true once the caller holds a slot (give it back with `release()`), or false when the
   * signal aborts or the window closes first.
   */
  acquire(signal?: AbortSignal, bulk = false): Promise<boolean> {
    if (this.closed || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => {
        const index = this.queue.indexOf(waiting);
        if (index >= 0) this.queue.splice(index, 1);
        resolve(false);
      };
      const waiting: Waiting = {
        bulk,
        grant: (granted) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(granted);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (bulk) this.queue.push(waiting);
      else {
        // Behind the transactional callers already waiting, ahead of every bulk one.
        const firstBulk = this.queue.findIndex((w) => w.bulk);
        this.queue.splice(firstBulk < 0 ? this.queue.length : firstBulk, 0, waiting);
      }
      this.pump();
    });
  }

  release(): void {
    if (this.inFlight > 0) this.inFlight -= 1;
    this.pump();
  }

  /** Holds every new submit back for `ms` (the carrier said "too fast"). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, performance.now() + ms);
  }

  /** Turns every waiting and later caller away. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const waiting of this.queue.splice(0)) waiting.grant(false);
  }

  private pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0 && this.inFlight < this.size) {
      const now = performance.now();
      if (now < this.pausedUntil) return void this.wake(this.pausedUntil - now);
      if (this.perSecond > 0) {
        this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
        this.refilledAt = now;
        if (this.tokens < 1) return void this.wake(((1 - this.tokens) * 1000) / this.perSecond);
        this.tokens -= 1;
      }
      this.inFlight += 1;
      this.queue.shift()?.grant(true);
    }
  }

  private wake(ms: number): void {
    this.timer = setTimeout(() => this.pump(), Math.max(1, Math.ceil(ms)));
  }
}
