import type { DeliveryStore, OutcomeRecord } from '../store/delivery-store.ts';

interface Pending {
  record: OutcomeRecord;
  resolve(written: boolean): void;
  reject(error: Error): void;
}

/**
 * Recording outcomes (STYLE principle 9): every stop of a recipient writes its status with a
 * human reason and appends a row to the send log. Writes from many connections are grouped: a
 * record waits for the next flush (the same event-loop turn, or the end of the flush running),
 * and the store writes them all in one transaction, which is what lets one worker record a
 * thousand outcomes a second on either database. A record is fenced by the lease owner; a worker
 * that lost the row writes nothing.
 */
export class OutcomeWriter {
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private scheduled = false;

  private readonly store: DeliveryStore;

  constructor(store: DeliveryStore) {
    this.store = store;
  }

  /** Resolves true when written, false when the row was no longer this worker's. */
  write(record: OutcomeRecord): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      this.schedule();
    });
  }

  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.flushing) {
      if (this.flushing) await this.flushing;
      else await this.flush();
    }
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.flushing = (async () => {
      try {
        const records = batch.map((p) => p.record);
        const once = () => this.store.writeOutcomes(records);
        // One transaction, all or nothing: a transient failure (a deadlock, a busy database) is
        // retried once before the batch's rows are left to their leases.
        const written = await once().catch(once);
        for (const [i, p] of batch.entries()) p.resolve(written[i] ?? false);
      } catch (error) {
        for (const p of batch) p.reject(error as Error);
      } finally {
        this.flushing = null;
        if (this.queue.length > 0) this.schedule();
      }
    })();
    return this.flushing;
  }
}
