/**
 * A byte budget for the recipients' copies in flight in one worker process, so memory stays
 * bounded however many recipients a large message has: the work loop may run hundreds of
 * recipients at once, and each holds its copy from render until its transaction ends.
 *
 * A copy is counted by what it really holds: the bytes it owns (its header lines and rewritten
 * parts, or a whole built message), plus the stored message its pieces slice, which is counted
 * once for all copies of that message in flight, not once per copy. A recipient whose copy does
 * not fit waits, in the order they asked, until earlier ones finish; a copy larger than the whole
 * budget goes ahead alone when nothing else is in flight, so nothing ever waits forever.
 *
 * The size is known only once a copy is built, so a lease is taken with an estimate before the
 * build and `settle`d to the real figure after it (and again if signing re-encodes the copy).
 */
export interface CopyLease {
  /** The copy's real size, once known: owned bytes, and the stored message it slices. */
  settle(owned: number, shared?: number): void;
  /** The copy is gone (delivered or given up): its bytes go back to the budget. Idempotent. */
  release(): void;
}

interface Waiter {
  message: number;
  owned: number;
  shared: number;
  grant(lease: CopyLease): void;
}

export class CopyBudget {
  private used = 0;
  /** The stored messages sliced by copies in flight: bytes counted once, and the copies holding them. */
  private readonly messages = new Map<number, { bytes: number; copies: number }>();
  private readonly queue: Waiter[] = [];

  private readonly limit: number;

  constructor(limitBytes: number) {
    this.limit = limitBytes;
  }

  /** Bytes counted as in flight now. */
  get inFlight(): number {
    return this.used;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** A lease for a copy of `message` owning `owned` bytes and slicing `shared` bytes of its stored message. */
  acquire(message: number, owned: number, shared = 0): Promise<CopyLease> {
    return new Promise((grant) => {
      this.queue.push({ message, owned, shared, grant });
      this.admit();
    });
  }

  /** Grants waiters in order while the first of them fits (or nothing is in flight). */
  private admit(): void {
    for (let next = this.queue[0]; next; next = this.queue[0]) {
      const charge = next.owned + (this.messages.has(next.message) ? 0 : next.shared);
      if (this.used > 0 && this.used + charge > this.limit) return;
      this.queue.shift();
      next.grant(this.lease(next));
    }
  }

  private lease(waiter: Waiter): CopyLease {
    let owned = waiter.owned;
    let released = false;
    const message = this.messages.get(waiter.message) ?? { bytes: 0, copies: 0 };
    this.messages.set(waiter.message, message);
    message.copies += 1;
    this.used += owned;
    this.resize(message, Math.max(message.bytes, waiter.shared));
    return {
      settle: (nextOwned, shared) => {
        if (released) return;
        this.used += nextOwned - owned;
        owned = nextOwned;
        if (shared !== undefined) this.resize(message, shared);
        this.admit();
      },
      release: () => {
        if (released) return;
        released = true;
        this.used -= owned;
        message.copies -= 1;
        if (message.copies === 0) {
          this.used -= message.bytes;
          this.messages.delete(waiter.message);
        }
        this.admit();
      },
    };
  }

  private resize(message: { bytes: number }, bytes: number): void {
    this.used += bytes - message.bytes;
    message.bytes = bytes;
  }
}
