/**
 * Group commit: accepts from concurrent requests are collected while the previous write is in
 * flight (and, when the writer is idle, until the current turn of the event loop ends, or for
 * `waitMs`) and written in one transaction, so a busy
 * server pays one durable commit (one fsync on SQLite) per batch rather than per message. Each
 * caller's promise settles after the commit that holds its message, so "accepted" still means
 * "on disk". A batch that fails as a whole is retried item by item, so one bad item (say, a
 * sendRequestId another process wrote a moment earlier) does not fail its neighbours.
 */
export type BatchWriter<T, R> = (items: T[]) => Promise<(R | Error)[]>;

interface Pending<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

export class GroupCommit<T, R> {
  private readonly write: BatchWriter<T, R>;
  private readonly waitMs: number;
  private readonly maxBatch: number;
  private queue: Pending<T, R>[] = [];
  private writing = false;
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: (() => void) | undefined;

  constructor(write: BatchWriter<T, R>, options: { waitMs?: number; maxBatch?: number } = {}) {
    this.write = write;
    this.waitMs = options.waitMs ?? 0;
    this.maxBatch = options.maxBatch ?? 500;
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.queue.length === 0 && !this.writing) {
        this.idle = new Promise((done) => {
          this.markIdle = done;
        });
      }
      this.queue.push({ item, resolve, reject });
      if (this.writing) return;
      if (this.queue.length >= this.maxBatch) this.flushNow();
      else
        this.timer ??=
          this.waitMs > 0
            ? setTimeout(() => this.flushNow(), this.waitMs)
            : setImmediate(() => this.flushNow());
    });
  }

  /** Resolves once everything submitted so far is written (for shutdown). */
  drain(): Promise<void> {
    return this.idle;
  }

  private flushNow(): void {
    if (this.timer) {
      clearTimeout(this.timer as NodeJS.Timeout);
      clearImmediate(this.timer as NodeJS.Immediate);
    }
    this.timer = undefined;
    if (this.writing || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.maxBatch);
    this.writing = true;
    void this.run(batch).finally(() => {
      this.writing = false;
      if (this.queue.length > 0) this.flushNow();
      else this.markIdle?.();
    });
  }

  private async run(batch: Pending<T, R>[]): Promise<void> {
    try {
      settle(batch, await this.write(batch.map((p) => p.item)));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      for (const pending of batch) {
        try {
          settle([pending], await this.write([pending.item]));
        } catch (single) {
          pending.reject(single);
        }
      }
    }
  }
}

function settle<T, R>(batch: Pending<T, R>[], results: (R | Error)[]): void {
  batch.forEach((pending, i) => {
    const result = results[i];
    if (result instanceof Error) pending.reject(result);
    else if (result === undefined) pending.reject(new Error('the writer returned no result'));
    else pending.resolve(result);
  });
}
