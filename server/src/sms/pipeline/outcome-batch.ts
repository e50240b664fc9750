/**
 * Gathers outcomes for one write: everything added before the next turn of the event loop (or
 * `max` of them) goes in one transaction, so a burst of submits costs a few commits, not one each.
 * `flush()` resolves once everything added so far is written; a failed write is retried after a
 * pause, because an outcome must not be lost while its message is still leased to this worker.
 */
export class OutcomeBatch<Outcome> {
  private queue: Outcome[] = [];
  private writing: Promise<void> | undefined;
  private scheduled = false;
  private waiters: (() => void)[] = [];

  private readonly write: (batch: Outcome[]) => Promise<unknown>;
  private readonly onError: (error: unknown) => void;
  private readonly max: number;

  constructor(write: (batch: Outcome[]) => Promise<unknown>, onError: (error: unknown) => void, max = 500) {
    this.write = write;
    this.onError = onError;
    this.max = max;
  }

  add(outcome: Outcome): void {
    this.queue.push(outcome);
    this.schedule();
  }

  get pending(): number {
    return this.queue.length;
  }

  flush(): Promise<void> {
    if (this.queue.length === 0 && !this.writing) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.writing = this.drain().finally(() => {
        this.writing = undefined;
        if (this.queue.length > 0) this.schedule();
        else this.wakeWaiters();
      });
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, this.max);
      try {
        await this.write(batch);
        this.queue.splice(0, batch.length);
      } catch (error) {
        this.onError(error);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  private wakeWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
